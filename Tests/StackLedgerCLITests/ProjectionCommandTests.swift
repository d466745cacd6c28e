import Foundation
import LMDBKit
import StackLedgerTesting
import Testing

@Suite("state, replay and policy commands")
struct ProjectionCommandTests {
    func ingested(_ scenario: String) throws -> WorkDirectory {
        let dir = WorkDirectory()
        let r = CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/\(scenario).ndjson")])
        #expect(r.status == 0)
        return dir
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("state --json has the shape of queries.md, with policy and tool")
    func stateJSON() throws {
        let dir = try ingested("cards-day")
        defer { dir.cleanup() }
        let r = CLI.call(["state", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try json(r.stdout)
        #expect(doc["at"] as? String == "2026-03-02T09:45:00Z")
        #expect(doc["device"] as? String == "default")
        let policy = try #require(doc["policy"] as? [String: Any])
        #expect(policy["name"] as? String == "smartstack-1")
        #expect((policy["digest"] as? String)?.hasPrefix("sha256:") == true)
        #expect((doc["tool"] as? String)?.hasPrefix("stackledger ") == true)
        let stack = try #require((doc["stacks"] as? [[String: Any]])?.first)
        #expect(stack["stack"] as? String == "home-1")
        #expect((stack["top"] as? [String: Any])?["kind"] as? String == "CardRecentPurchasesWidget")
        let widgets = try #require(stack["widgets"] as? [[String: Any]])
        let cards = try #require(widgets.first { $0["instance"] as? String == "w-cards" })
        let relevance = try #require(cards["relevance"] as? [String: Any])
        #expect(relevance["score"] as? Double == 52.6)
        #expect(relevance["event"] as? Int == 6)
        #expect(relevance["until"] as? String == "2026-03-02T10:11:00Z")
    }

    @Test("replay --json prints one decision per line with reasons citing events")
    func replayJSON() throws {
        let dir = try ingested("calendar-suggestion")
        defer { dir.cleanup() }
        let r = CLI.call([
            "replay", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-02T23:59:59Z", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let suggest = try json(lines[0])
        let unsuggest = try json(lines[1])
        #expect(suggest["action"] as? String == "suggest" && unsuggest["action"] as? String == "unsuggest")
        #expect(suggest["time"] as? String == "2026-03-02T09:30:00Z")
        let reason = try #require((suggest["reasons"] as? [[String: Any]])?.first)
        #expect(
            reason["code"] as? String == "RELEVANT_SHORTCUT" && reason["basis"] as? String == "documented"
                && reason["rule"] as? String == "S6")
        #expect(reason["events"] as? [Int] == [4])
    }

    @Test("the same answer twice, the second from checkpoints, byte for byte")
    func repeatable() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        _ = try dir.write("w.ndjson", workload(3000, seed: 5))
        #expect(CLI.call(["ingest", "--store", dir.store, dir.file("w.ndjson")]).status == 0)
        let args = ["state", "--store", dir.store, "--device", "device-1", "--at", "2026-03-20T12:00:00Z", "--json"]
        let a = CLI.call(args)
        let b = CLI.call(args)
        #expect(a.status == 0 && a.stdout == b.stdout)
        let replay = [
            "replay", "--store", dir.store, "--device", "device-1", "--from", "2026-03-05T00:00:00Z", "--to",
            "2026-03-20T12:00:00Z", "--json",
        ]
        let c = CLI.call(replay)
        let d = CLI.call(replay)
        #expect(c.status == 0 && !c.stdout.isEmpty && c.stdout == d.stdout)
    }

    @Test("several devices without --device is a usage error listing them")
    func severalDevices() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        _ = try dir.write("w.ndjson", workload(500, seed: 2))
        #expect(CLI.call(["ingest", "--store", dir.store, dir.file("w.ndjson")]).status == 0)
        let r = CLI.call(["state", "--store", dir.store, "--at", "2026-03-02T12:00:00Z"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("device-0") && r.stderr.contains("device-1") && r.stderr.contains("--device"))
    }

    @Test("policy prints its parameters; an override changes the digest; a bad file is a usage error")
    func policy() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let base = try json(CLI.call(["policy", "--json"]).stdout)
        // Scripts pass --store to every command; policy reads none.
        let withStore = CLI.call(["policy", "--json", "--store", dir.store])
        let withStoreDigest = try json(withStore.stdout)["digest"] as? String
        #expect(withStore.status == 0 && withStoreDigest == base["digest"] as? String)
        let params = try #require(base["parameters"] as? [String: Any])
        #expect(
            params.keys.contains("rotationCapPerWidgetPerDay") && params.keys.contains("suggestionCapPerWidgetPerDay"))
        let file = try dir.write("p.json", #"{"rotationCapPerWidgetPerDay": null}"#)
        let custom = try json(CLI.call(["policy", "--json", "--policy", file]).stdout)
        #expect(custom["digest"] as? String != base["digest"] as? String)
        #expect((custom["parameters"] as? [String: Any])?["rotationCapPerWidgetPerDay"] is NSNull)
        let bad = try dir.write("bad.json", #"{"rotationCap": 3}"#)
        let r = CLI.call(["policy", "--policy", bad])
        #expect(r.status == 65 && r.stderr.contains("rotationCap"))
        // Text that is not JSON is named by line and column.
        let broken = try dir.write("broken.json", "{\n  \"parameters\": {\n    \"scrollHoldMinutes\": 30,\n  }\n}\n")
        let syntax = CLI.call(["policy", "--policy", broken])
        #expect(syntax.status == 65 && syntax.stderr.contains("broken.json:4:3: not JSON"))
        let cut = try dir.write("cut.json", #"{"parameters": {"scrollHoldMinutes": 30"#)
        let short = CLI.call(["policy", "--policy", cut])
        #expect(short.status == 65 && short.stderr.contains("cut.json:1:40: not JSON: the file ends inside an object"))
    }

    @Test("a store that fails its quick check is refused (74) unless --force, which marks the answer unverified")
    func quickCheck() throws {
        let dir = try ingested("cards-day")
        defer { dir.cleanup() }
        // Flip one bit of the newest record through LMDB, as a forger would.
        try StoreForgery.flipBit(inRecord: 6, store: dir.store)
        let r = CLI.call(["state", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--json"])
        #expect(r.status == 74 && r.stderr.contains("--force"))
        let forced = CLI.call(["state", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--json", "--force"])
        #expect(forced.status == 0 && forced.stdout.contains(#""verified":false,"unreadable":[6]"#))
        let why = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--json",
        ])
        #expect(why.status == 74 && why.stderr.contains("--force"))
        let whyForced = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--json", "--force",
        ])
        #expect(whyForced.status == 0 && whyForced.stdout.contains(#""verified":false"#), "\(whyForced.stderr)")
        let text = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--force",
        ])
        #expect(
            text.status == 0 && text.stdout.hasPrefix("UNVERIFIED: the store failed its quick check"), "\(text.stdout)")
    }
}

@Suite("verify and checkpoints")
struct VerifyCheckpointTests {
    @Test("verify checks the checkpoints against the log and names a rewritten one")
    func checkpoints() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        _ = try dir.write("w.ndjson", workload(6000, seed: 4))
        #expect(CLI.call(["ingest", "--store", dir.store, dir.file("w.ndjson")]).status == 0)
        #expect(
            CLI.call(["state", "--store", dir.store, "--device", "device-0", "--at", "2026-12-31T00:00:00Z"]).status
                == 0)
        let ok = CLI.call(["verify", "--store", dir.store, "--json"])
        #expect(ok.status == 0 && !ok.stdout.contains(#""checkpoints":0"#), "\(ok.stdout)")
        // Point a checkpoint at another record, as a careless tool might.
        let env = try Environment(path: dir.store, options: .init(initialMapSize: 64 << 20))
        try env.write { txn in
            let db = try txn.openDatabase("derived")
            let c = try txn.cursor(db)
            let first = try #require(try Array("cp".utf8).withUnsafeBytes { try c.seek(atOrAfter: $0) })
            var key = Array(first.key)
            var value = Array(first.value)
            key[key.count - 1] ^= 0x01
            try c.deleteCurrent()
            _ = try txn.put(db, key: key, value: value)
            value = []
        }
        let bad = CLI.call(["verify", "--store", dir.store])
        #expect(bad.status == 1 && bad.stdout.contains("the checkpoint of device-0"))
    }
}

import Foundation
import StackLedgerTesting
import Testing

@Suite("rebuild command")
struct RebuildCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("rebuild folds every device's events into checkpoints; answers after it are those of a store without them")
    func rebuildsCheckpoints() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let log = try dir.write("log.ndjson", workload(6_000, seed: 4))
        #expect(CLI.call(["ingest", "--store", dir.store, log]).status == 0)
        let cold = WorkDirectory()
        defer { cold.cleanup() }
        #expect(CLI.call(["ingest", "--store", cold.store, log]).status == 0)

        let r = CLI.call(["rebuild", "--store", dir.store, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try json(r.stdout)
        #expect(doc["devices"] as? Int == 4)
        #expect(doc["events"] as? Int == 6_000)
        let checkpoints = try #require(doc["checkpoints"] as? Int)
        // 1,500 events a device, a checkpoint every 1,024 at least.
        #expect(checkpoints >= 4)
        #expect((doc["checkpointBytes"] as? Int ?? 0) > 0)
        #expect((doc["policy"] as? [String: Any])?["name"] as? String == "smartstack-1")

        // Made again from nothing, the same checkpoints.
        let again = try json(CLI.call(["rebuild", "--store", dir.store, "--json"]).stdout)
        #expect(
            again["checkpoints"] as? Int == checkpoints
                && again["checkpointBytes"] as? Int == doc["checkpointBytes"] as? Int)

        // The log spans 2026-03-02 to 2026-03-07; device-3 is a watch.
        for device in ["device-0", "device-3"] {
            let args = ["state", "--device", device, "--at", "2026-03-05T12:00:00Z", "--json"]
            let warm = CLI.call(args + ["--store", dir.store])
            #expect(warm.status == 0, "\(warm.stderr)")
            #expect(warm.stdout.contains("\"top\":{"))
            #expect(warm.stdout == (CLI.call(args + ["--store", cold.store])).stdout)
        }
        #expect(CLI.call(["verify", "--store", dir.store]).status == 0)

        // Spaced by events alone (share 0), checkpoints come at least as often and take
        // at least as many bytes; verify holds them to the log all the same.
        let dense = try json(
            CLI.call(["rebuild", "--store", dir.store, "--checkpoint-share", "0", "--json"]).stdout)
        #expect((dense["checkpoints"] as? Int ?? 0) >= checkpoints)
        #expect((dense["checkpointBytes"] as? Int ?? 0) >= doc["checkpointBytes"] as? Int ?? .max)
        #expect(CLI.call(["verify", "--store", dir.store]).status == 0)
        for share in ["-1", "101", "nan"] {
            let bad = CLI.call(["rebuild", "--store", dir.store, "--checkpoint-share", share])
            #expect(bad.status == 64 && bad.stderr.contains("--checkpoint-share"), "\(share): \(bad.stderr)")
        }
    }

    @Test("rebuild without a store, or with a bad policy file, fails with the documented codes and creates nothing")
    func badInvocations() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let missing = CLI.call(["rebuild", "--store", dir.store])
        #expect(missing.status == 74 && missing.stderr.contains("no store at"))
        #expect(!FileManager.default.fileExists(atPath: dir.store))
        let policy = CLI.call(["rebuild", "--store", dir.store, "--policy", dir.file("none.json")])
        #expect(policy.status == 74 && policy.stderr.contains("--policy"))
        #expect(CLI.call(["rebuild", "--store", dir.store, "--threads", "0"]).status == 64)
    }
}

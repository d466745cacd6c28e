import Foundation
import StackLedgerTesting
import Testing

/// Devices whose records a known policy made: calibration from the defaults must find it.
@Suite("calibrate on known truth")
struct CalibrateTests {
    static let from = "2025-04-01T00:00:00Z"
    static let to = "2025-04-16T00:00:00Z"

    /// A phone of the phone-timelines shape over two weeks, with the records of the
    /// device's own that `truth` implies: its rotations as `stack.rotated` (a tenth lost,
    /// a few naming the widget rotated away from, as real stores lose and garble them), and
    /// its tops at random instants as top-scope `stack.observed`.
    func device(truth: String, in dir: WorkDirectory) throws -> (store: String, truth: String) {
        var generator = ShapeGenerator(shape: .phoneTimelines, events: 3_000, seed: 1)
        generator.devices = 1
        var log = [UInt8]()
        try generator.writeNDJSON { log += $0 }
        let logFile = try dir.write("log.ndjson", String(decoding: log, as: UTF8.self))
        #expect(CLI.call(["ingest", "--store", dir.store, logFile]).status == 0)
        let policy = try dir.write("truth.json", truth)
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", Self.from, "--to", Self.to, "--json", "--policy", policy,
        ])
        try #require(replay.status == 0, "\(replay.stderr)")
        var random = SplitMix64(seed: 7)
        var records = [String]()
        for line in replay.stdout.split(separator: "\n") {
            let d = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard d["action"] as? String == "rotate", let widget = d["widget"] as? [String: Any] else { continue }
            let roll = random.next() % 100
            if roll < 10 { continue }
            let garbled = roll < 13 ? (d["from"] as? [String: Any])?["instance"] as? String : nil
            let instance = try #require(garbled ?? widget["instance"] as? String)
            records.append(
                #"{"type":"stack.rotated","time":"\#(d["time"]!)","device":"\#(d["device"]!)","stack":"\#(d["stack"]!)","instance":"\#(instance)"}"#
            )
        }
        let start = try #require(ISO8601DateFormatter().date(from: "2025-04-01T06:00:00Z"))
        for _ in 0..<120 {
            let at = ISO8601DateFormatter().string(
                from: start.addingTimeInterval(Double(random.next() % (14 * 86_400))))
            let state = CLI.call(["state", "--store", dir.store, "--at", at, "--json", "--policy", policy])
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])
            for stack in doc["stacks"] as? [[String: Any]] ?? [] {
                guard let top = (stack["top"] as? [String: Any])?["instance"] as? String else { continue }
                records.append(
                    #"{"type":"stack.observed","time":"\#(at)","device":"\#(doc["device"]!)","stack":"\#(stack["stack"]!)","instance":"\#(top)","onScreen":true,"scope":"top"}"#
                )
            }
        }
        let recordFile = try dir.write("records.ndjson", records.joined(separator: "\n") + "\n")
        #expect(CLI.call(["ingest", "--store", dir.store, recordFile]).status == 0)
        return (dir.store, policy)
    }

    func calibrate(_ store: String, out: String) throws -> [String: Any] {
        let r = CLI.call([
            "calibrate", "--store", store, "--parameters",
            "rotationCapPerWidgetPerDay,scrollHoldMinutes,usagePatternMinimum",
            "--budget", "600", "--out", out, "--json",
        ])
        try #require(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func parameter(_ report: [String: Any], _ name: String) throws -> [String: Any] {
        let all = try #require(report["parameters"] as? [[String: Any]])
        return try #require(all.first { $0["name"] as? String == name })
    }

    @Test(
        "a device made with a daily rotation cap of 2: the cap is recovered, held-out agreement is at least 95 %, the parameters the records cannot tell are named, and the policy file is the same byte for byte"
    )
    func recoversTheCap() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let (store, _) = try device(
            truth: #"{"rotationCapPerWidgetPerDay": 2, "scrollHoldMinutes": 30, "usagePatternMinimum": 5}"#, in: dir)
        let report = try calibrate(store, out: dir.file("fit.json"))
        let search = try #require(report["search"] as? [String: Any])
        #expect(search["converged"] as? Bool == true)
        let cap = try parameter(report, "rotationCapPerWidgetPerDay")
        #expect(cap["identified"] as? Bool == true)
        #expect(abs((cap["fitted"] as? Double ?? 0) - 2) <= 1)
        // No scroll is recorded: the records say nothing about the hold after one.
        let hold = try parameter(report, "scrollHoldMinutes")
        #expect(hold["identified"] as? Bool == false)
        #expect(hold["fitted"] as? Double == 60)
        // Donation patterns move no widget here: the records bound the minimum, never to one value.
        let minimum = try parameter(report, "usagePatternMinimum")
        #expect(minimum["identified"] as? Bool == false)
        #expect((minimum["best"] as? [Double] ?? []).contains(5))
        let agreement = try #require(report["agreement"] as? [String: Any])
        let heldOut = try #require(agreement["afterHeldOut"] as? [String: Any])
        #expect((heldOut["share"] as? Double ?? 0) >= 0.95)
        let before = try #require(agreement["beforeHeldOut"] as? [String: Any])
        #expect((before["share"] as? Double ?? 1) < (heldOut["share"] as? Double ?? 0))
        // The fitted policy names itself, and an answer made with it cites it.
        let file = try String(contentsOfFile: dir.file("fit.json"), encoding: .utf8)
        #expect(file.contains(#""name":"smartstack-1-fit""#))
        let state = CLI.call([
            "state", "--store", store, "--at", "2025-04-10T12:00:00Z", "--json", "--policy", dir.file("fit.json"),
        ])
        #expect(state.status == 0)
        let header = try #require(
            (try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])?["policy"]
                as? [String: Any])
        #expect(header["name"] as? String == "smartstack-1-fit")
        let fitted = try #require(header["fitted"] as? [String: Any])
        #expect(fitted["device"] as? String == "phone-timelines-0")
        #expect((fitted["heldOut"] as? [String: Any])?["judged"] as? Int ?? 0 > 0)
        // export sqlite gains one calibration row per parameter fitted, read by the sqlite3 shell.
        let db = dir.file("fit.db")
        #expect(
            CLI.call(["export", "sqlite", "--store", store, "--out", db, "--policy", dir.file("fit.json")]).status == 0)
        let rows = try CLI.run(
            executable: "/usr/bin/sqlite3",
            [db, "SELECT parameter, value, converged FROM calibration ORDER BY parameter"])
        #expect(
            rows.stdout
                == "rotationCapPerWidgetPerDay|\(cap["fitted"] as? Double == 2 ? "2" : "?")|1\nscrollHoldMinutes|60|1\nusagePatternMinimum|3|1\n"
        )
        // The disagreements left are the garbled records: replay under the fitted policy lists the same number.
        let disagreements = try #require(report["disagreements"] as? [[String: Any]])
        let replayed = CLI.call([
            "replay", "--store", store, "--from", Self.from, "--to", Self.to, "--disagreements", "--json", "--policy",
            dir.file("fit.json"),
        ])
        #expect(replayed.stdout.split(separator: "\n").count == disagreements.count)
        // Deterministic: the same store, options and seed write the same file.
        _ = try calibrate(store, out: dir.file("again.json"))
        #expect(try String(contentsOfFile: dir.file("again.json"), encoding: .utf8) == file)
    }

    @Test("a device made with the defaults calibrates back to them")
    func defaultsStay() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let (store, _) = try device(truth: "{}", in: dir)
        let report = try calibrate(store, out: dir.file("fit.json"))
        for name in ["rotationCapPerWidgetPerDay", "scrollHoldMinutes", "usagePatternMinimum"] {
            let p = try parameter(report, name)
            #expect(p["fitted"] as? Double == p["start"] as? Double, "\(name)")
        }
        let agreement = try #require(report["agreement"] as? [String: Any])
        let heldOut = try #require(agreement["afterHeldOut"] as? [String: Any])
        #expect((heldOut["share"] as? Double ?? 0) >= 0.95)
        // A budget too short for the search: it stops, says so, and still writes a policy.
        let short = CLI.call([
            "calibrate", "--store", store, "--budget", "1", "--out", dir.file("short.json"), "--json",
        ])
        #expect(short.status == 0, "\(short.stderr)")
        let search = try #require(
            (try JSONSerialization.jsonObject(with: Data(short.stdout.utf8)) as? [String: Any])?["search"]
                as? [String: Any])
        #expect(search["converged"] as? Bool == false)
        #expect((search["seconds"] as? Double ?? 99) < 10)
        #expect(FileManager.default.fileExists(atPath: dir.file("short.json")))
    }

    @Test("calibrate refuses a documented rule, a bad holdout and a what-if view, with exit 64")
    func refusals() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let out = dir.file("fit.json")
        for bad in [
            ["--parameters", "maxWidgetsPerStack"], ["--parameters", "reloadBudgetPerDay"], ["--holdout", "0.95"],
            ["--known-at", "2026-03-02T10:00:00Z"], ["--budget", "0"],
        ] {
            let r = CLI.call(["calibrate", "--store", dir.store, "--out", out] + bad)
            #expect(r.status == 64, "\(bad)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(bad)")
        }
        // policy --json declares the values calibration may try, and none for a documented rule.
        let policy = try #require(
            try JSONSerialization.jsonObject(with: Data(CLI.call(["policy", "--json"]).stdout.utf8)) as? [String: Any])
        let ranges = try #require(policy["ranges"] as? [String: [String: Any]])
        #expect(ranges["rotationCapPerWidgetPerDay"]?["values"] as? [Any?] != nil)
        #expect(ranges["maxWidgetsPerStack"] == nil && ranges["reloadBudgetPerDay"] == nil)
        #expect((ranges["scrollHoldMinutes"]?["values"] as? [Double])?.first == 0)
        #expect(policy["calibratedByDefault"] as? [String] != nil)
        // A log without records of the device's own: nothing is fitted, and the report says why.
        let r = CLI.call(["calibrate", "--store", dir.store, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("no records that say which widget was on top"))
        #expect(r.stdout.contains("not identified"))
    }
}

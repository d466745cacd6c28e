import Foundation
import SmartStack
import StackLedgerTesting
import Testing

/// `export timeline`: checked by Timesketch's own import validators.
@Suite("export timeline")
struct TimelineExportTests {
    /// An app name no writer may pass through raw: quotes, a line break, a tab, markup and
    /// text that looks like JSON.
    static let hostile = "com.evil\",\"x\n\t<script>alert(1)</script> {\"message\":\"forged\"}"

    /// A store with a device extraction (its records, layout and Duet expert store) and a
    /// scenario whose decisions the model makes, plus an event with the hostile app name.
    func store(_ dir: WorkDirectory) throws {
        let root = try DeviceLayoutTests().extraction(dir)
        try DuetExpertStoreTests().writeStore(into: root)
        let imported = CLI.call([
            "import", "extraction", root, "--device", "phone", "--layout-time", "2021-12-16T12:00:00Z", "--store",
            dir.store,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        var lines = try String(
            contentsOfFile: Fixtures.path("scenarios/calendar-suggestion.ndjson"), encoding: .utf8)
        var w = CanonicalWriter()
        w.string(Self.hostile)
        lines += #"{"type":"app.foreground","time":"2026-03-02T09:10:00+01:00","app":\#(w.text),"duration":30}"# + "\n"
        let events = try dir.write("scenario.ndjson", lines)
        #expect(CLI.call(["ingest", "--store", dir.store, events]).status == 0)
    }

    @Test("Timesketch's validators read every line of the JSONL and the CSV, with the same times and strings")
    func timesketchReadsBoth() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let jsonl = dir.file("t.jsonl")
        let csv = dir.file("t.csv")
        let a = CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", jsonl])
        let b = CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch-csv", "--out", csv])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
        let lineCount = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n").count
        let script = """
            import json, sys
            from timesketch.lib import utils
            hostile = sys.argv[3]
            rows = list(utils.read_and_validate_jsonl(open(sys.argv[1])))
            table = list(utils.read_and_validate_csv(open(sys.argv[2])))
            print(len(rows), len(table))
            print(sorted({r["row_type"] for r in rows}))
            print(all(r["timestamp"] == t["timestamp"] and r["message"] == t["message"] for r, t in zip(rows, table)))
            bad = [r for r in rows if r["row_type"] in ("decision", "disagreement") and not r["message"].startswith("smartstack-1 model")]
            print(len(bad))
            evil = [r for r in rows if r.get("widget_app") == hostile]
            evil_csv = [t for t in table if t.get("widget_app") == hostile]
            print(len(evil), len(evil_csv), hostile in evil[0]["message"], evil[0]["datetime"])
            print(sorted({r["origin"] for r in rows}))
            print(sum(1 for r in rows if r.get("source_path", "").endswith("_ATXInfoSuggestionStore.db")))
            meta = json.load(open(sys.argv[1] + ".meta.json"))
            print(meta["policy"]["name"], meta["chainHead"] == rows[0]["chain_head"], sum(meta["lines"].values()))
            """
        let r = try CLI.run(executable: ExportProjectionTests.python, ["-c", script, jsonl, csv, Self.hostile])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 8, "\(r.stdout)")
        #expect(out[0] == "\(lineCount) \(lineCount)")
        #expect(out[1] == "['decision', 'disagreement', 'event', 'observation']")
        #expect(out[2] == "True")
        #expect(out[3] == "0")
        // The event's own offset is kept.
        #expect(out[4] == "1 1 True 2026-03-02T09:10:00+01:00", "\(out[4])")
        #expect(out[5] == "['app', 'device', 'model']")
        // The Duet expert store's 6 events, its 2 rotations and its tap as observations, and the
        // two the model disagrees with, each with the store's path.
        #expect(out[6] == "11")
        #expect(out[7] == "smartstack-1 True \(lineCount)")
    }

    @Test("--include keeps only the kinds asked for; --from and --to bound every kind")
    func includeAndInterval() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let out = dir.file("d.jsonl")
        let r = CLI.call([
            "export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", out, "--include",
            "decisions", "--from", "2026-03-02T09:00:00Z", "--to", "2026-03-02T11:00:00Z",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""row_type":"decision""#) }, "\(lines)")
        #expect(lines.first?.contains(#""decision_action":"suggest""#) == true)
        let bad = CLI.call([
            "export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", out, "--include", "rumours",
        ])
        #expect(bad.status == 64 && bad.stderr.contains("--include rumours"))
    }
}

import Foundation
import StackLedgerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `export sqlite`: read back by the sqlite3 shell and by Python's sqlite3.
@Suite("export sqlite")
struct SQLiteExportTests {
    @Test(
        "the sqlite3 shell and Python read every table; the rows match the timeline and the hostile strings round-trip")
    func tablesReadBack() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        let db = dir.file("export.db")
        let r = CLI.call(["export", "sqlite", "--store", dir.store, "--out", db, "--every", "1h"])
        #expect(r.status == 0, "\(r.stderr)")
        let shell = try CLI.run(
            executable: "/usr/bin/sqlite3",
            [
                db, "PRAGMA integrity_check",
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                // The nine indices on time, device and the joins, and meta's key.
                "SELECT count(*) FROM sqlite_master WHERE type = 'index'",
            ])
        #expect(shell.status == 0, "\(shell.stderr)")
        #expect(
            shell.stdout
                == "ok\nassumptions\ncalibration\ndecisions\ndisagreements\nevents\nmeta\nobservations\nreason_events\nreasons\nstates\n10\n",
            "\(shell.stdout)")
        let timeline = dir.file("t.jsonl")
        #expect(
            CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", timeline])
                .status
                == 0)
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = [json.loads(l) for l in open(sys.argv[2])]
            kinds = {k: sum(1 for r in rows if r["row_type"] == k) for k in ("event", "decision", "observation", "disagreement")}
            counts = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("events", "decisions", "observations", "disagreements")]
            print(counts == [kinds["event"], kinds["decision"], kinds["observation"], kinds["disagreement"]], counts)
            line = db.execute("SELECT line FROM events WHERE app = ?", (sys.argv[3],)).fetchone()[0]
            print(json.loads(line)["app"] == sys.argv[3])
            print(db.execute("SELECT d.action, r.code, r.basis, v.type, v.app FROM decisions d JOIN reasons r ON r.decision_id = d.id JOIN reason_events e ON e.reason_id = r.id JOIN events v ON v.seq = e.seq WHERE d.device = 'default' ORDER BY d.time_us LIMIT 1").fetchone())
            print(db.execute("SELECT count(*) FROM reason_events e LEFT JOIN events v ON v.seq = e.seq WHERE v.seq IS NULL").fetchone()[0])
            print(db.execute("SELECT count(DISTINCT time_us), sum(on_top) > 0 FROM states WHERE device = 'default'").fetchone())
            print(db.execute("SELECT code, count(*) > 0 FROM assumptions GROUP BY code ORDER BY code").fetchall())
            meta = dict(db.execute("SELECT key, value FROM meta"))
            print(meta["policy_name"], meta["chain_head"].startswith("seq "), json.loads(meta["devices"]))
            """
        let py = try CLI.run(
            executable: ExportProjectionTests.python, ["-c", script, db, timeline, TimelineExportTests.hostile])
        #expect(py.status == 0, "\(py.stderr)")
        let out = py.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == 7, "\(py.stdout)")
        #expect(out[0].hasPrefix("True"), "\(out[0])")
        #expect(out[1] == "True")
        #expect(
            out[2] == "('suggest', 'RELEVANT_SHORTCUT', 'documented', 'shortcuts.relevantSet', 'com.example.calendar')",
            "\(out[2])")
        #expect(out[3] == "0")
        #expect(out[5].contains("('LAYOUT_ASSUMED', 1)"), "\(out[5])")
        #expect(out[6] == "smartstack-1 True ['default', 'phone']", "\(out[6])")
    }

    @Test(
        "--format ndjson writes every table's rows as the database holds them, which Arrow's JSON reader reads with the schema's types; an earlier export is replaced, other directories refused"
    )
    func ndjsonTables() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        let (db, tables) = (dir.file("export.db"), dir.file("tables"))
        #expect(CLI.call(["export", "sqlite", "--store", dir.store, "--out", db, "--every", "1h"]).status == 0)
        for _ in 0..<2 {
            let r = CLI.call(
                ["export", "sqlite", "--store", dir.store, "--out", tables, "--every", "1h", "--format", "ndjson"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let script = """
            import json, os, sqlite3, sys
            import pyarrow as pa, pyarrow.json as pj
            db = sqlite3.connect(sys.argv[1])
            types = {"TEXT": pa.string(), "INTEGER": pa.int64(), "REAL": pa.float64()}
            names = sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
            print(sorted(os.listdir(sys.argv[2])) == [n + ".ndjson" for n in names])
            for table in names:
                info = db.execute(f'PRAGMA table_info("{table}")').fetchall()
                rows = [tuple(r) for r in db.execute(f'SELECT * FROM "{table}" ORDER BY rowid')]
                path = os.path.join(sys.argv[2], table + ".ndjson")
                lines = [json.loads(l) for l in open(path)]
                keys = all(list(o) == [c[1] for c in info] for o in lines)
                read = []
                if lines:
                    schema = pa.schema([(c[1], types[c[2]]) for c in info])
                    t = pj.read_json(path, parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error"))
                    read = list(zip(*[t.column(c[1]).to_pylist() for c in info]))
                if table == "meta":
                    rows = [r for r in rows if r[0] not in ("exported_at", "arguments")]
                    read = [r for r in read if r[0] not in ("exported_at", "arguments")]
                print(table, len(rows), keys and read == rows)
            """
        let py = try CLI.run(executable: ExportProjectionTests.python, ["-c", script, db, tables])
        #expect(py.status == 0, "\(py.stderr)")
        let out = py.stdout.split(separator: "\n").map(String.init)
        #expect(out.first == "True", "\(py.stdout)")
        #expect(out.count == 11, "\(py.stdout)")
        for line in out.dropFirst() { #expect(line.hasSuffix(" True"), "\(line)") }
        // The store's answers hold observations, disagreements and assumptions: every table is read.
        for table in ["observations", "disagreements", "assumptions", "states", "reason_events"] {
            #expect(out.contains { $0.hasPrefix(table + " ") && !$0.hasPrefix(table + " 0 ") }, "\(table)")
        }

        let other = dir.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        _ = try dir.write("other/notes.txt", "kept\n")
        let refused = CLI.call(["export", "sqlite", "--store", dir.store, "--out", other, "--format", "ndjson"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("holds notes.txt"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: dir.file("other/notes.txt"), encoding: .utf8) == "kept\n")
        let file = CLI.call(["export", "sqlite", "--store", dir.store, "--out", db, "--format", "ndjson"])
        #expect(file.status == 64)
        #expect(file.stderr.contains("is not a directory"), "\(file.stderr)")
    }

    @Test("a temporary store: --no-sync ingests and exports the same rows, --no-events leaves the events table empty")
    func temporaryStore() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let scenario = Fixtures.path("scenarios/calendar-suggestion.ndjson")
        let quick = dir.file("quick")
        #expect(CLI.call(["ingest", "--store", dir.store, scenario]).status == 0)
        #expect(CLI.call(["ingest", "--store", quick, "--no-sync", scenario]).status == 0)
        #expect(CLI.call(["verify", "--store", quick]).status == 0)
        let (full, lean) = (dir.file("full.db"), dir.file("lean.db"))
        #expect(CLI.call(["export", "sqlite", "--store", dir.store, "--out", full]).status == 0)
        let r = CLI.call(["export", "sqlite", "--store", quick, "--no-sync", "--no-events", "--out", lean])
        #expect(r.status == 0, "\(r.stderr)")
        let count =
            "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM decisions), (SELECT count(*) FROM states)"
        let counts = try [full, lean].map { try CLI.run(executable: "/usr/bin/sqlite3", [$0, count]).stdout }
        let (events, rest) = (counts[0].split(separator: "|"), counts[1].split(separator: "|"))
        try #require(events.count == 3 && rest.count == 3, "\(counts)")
        #expect(Int(events[0])! > 0 && rest[0] == "0")
        #expect(events[1] == rest[1] && events[2] == rest[2] && Int(rest[1])! > 0, "\(counts)")
        // `--schema` prints, without a store, the tables of the database an export writes.
        let printed = CLI.call(["export", "sqlite", "--schema", "--store", dir.file("none")])
        #expect(printed.status == 0, "\(printed.stderr)")
        let tables = try CLI.run(
            executable: "/usr/bin/sqlite3", [full, "SELECT sql || ';' FROM sqlite_master WHERE type = 'table'"]
        ).stdout
        #expect(
            printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == tables.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(CLI.call(["export", "sqlite", "--store", dir.store]).status == 64)
    }

    @Test("a killed export leaves the file it would replace as it was")
    func killedExport() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/calendar-suggestion.ndjson")]).status
                == 0)
        let db = dir.file("export.db")
        _ = try dir.write("export.db", "an earlier export")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = [
            "export", "sqlite", "--store", dir.store, "--out", db, "--every", "1s", "--to", "2026-03-09T00:00:00Z",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let partial = (db as NSString).deletingLastPathComponent + "/.export.db.partial-\(process.processIdentifier)"
        var waited = 0
        while !FileManager.default.fileExists(atPath: partial) && waited < 2_000 && process.isRunning {
            usleep(1_000)
            waited += 1
        }
        #expect(process.isRunning, "the export ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try String(contentsOfFile: db, encoding: .utf8) == "an earlier export")
    }
}

import Foundation
import StackLedgerTesting
import Testing

@Suite("export projection")
struct ExportProjectionTests {
    /// The Python with duckdb that tools/setup installs.
    static let python = Fixtures.repositoryRoot + "/.build/pyenv/bin/python3"

    func duckdb(_ script: String) throws -> String {
        let r = try CLI.run(executable: ExportProjectionTests.python, ["-c", script])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("DuckDB loads the CSV and the NDJSON, and the rows are the samples and decisions")
    func duckDBLoadsBoth() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            FileManager.default.isExecutableFile(atPath: ExportProjectionTests.python),
            "run tools/setup: it installs duckdb in .build/pyenv")
        #expect(
            CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/calendar-suggestion.ndjson")]).status
                == 0)
        let common = [
            "--store", dir.store, "--from", "2026-03-02T09:00:00Z", "--to", "2026-03-02T10:30:00Z", "--every", "30m",
        ]
        let csv = CLI.call(["export", "projection"] + common + ["--format", "csv"])
        let ndjson = CLI.call(["export", "projection"] + common + ["--format", "ndjson"])
        #expect(csv.status == 0 && ndjson.status == 0, "\(csv.stderr)\(ndjson.stderr)")
        let csvFile = try dir.write("p.csv", csv.stdout)
        let jsonFile = try dir.write("p.ndjson", ndjson.stdout)
        let rows = try duckdb(
            """
            import duckdb
            print(duckdb.sql("select count(*), count(distinct time), sum(case when suggested then 1 else 0 end), \
            sum(case when onTop then 1 else 0 end) from read_csv('\(csvFile)', header=true)").fetchall()[0])
            print(duckdb.sql("select instance, position from read_csv('\(csvFile)', header=true) where onTop and suggested").fetchall()[0])
            print(duckdb.sql("select kind, count(*) from read_json('\(jsonFile)', format='newline_delimited') group by kind order by kind").fetchall())
            print(duckdb.sql("select action from read_json('\(jsonFile)', format='newline_delimited') where kind = 'decision' order by time").fetchall())
            """)
        let lines = rows.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        // 4 samples: 2 widgets each, and 3 while the suggestion is shown (09:30).
        #expect(lines[0] == "(9, 4, 1, 4)")
        #expect(lines[1] == "('sys:com.example.calendar/CalendarWidget', 0)")
        #expect(lines[2] == "[('decision', 2), ('state', 4)]")
        #expect(lines[3] == "[('suggest',), ('unsuggest',)]")
    }

    @Test("a bad --every is a usage error")
    func badEvery() throws {
        let r = CLI.call([
            "export", "projection", "--from", "2026-03-02T09:00:00Z", "--to", "2026-03-02T10:00:00Z", "--every", "5x",
            "--format", "csv",
        ])
        #expect(r.status == 64 && r.stderr.contains("--every"))
    }
}

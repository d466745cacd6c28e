import Foundation
import StackLedgerTesting
import Testing

@Suite("ingest, log, export, verify, stats from the command line")
struct IngestCommandTests {
    @Test("a scenario ingests, logs with sequence numbers and verifies")
    func scenario() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let r = try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("stored 6, skipped 0 duplicates, rejected 0 (seq 1-6)"))
        let log = try CLI.run(["log", "--store", dir.store, "--kind", "CardRecentPurchasesWidget", "--json"])
        let lines = log.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains(#""type":"widget.timeline""#) && lines[1].contains(#""seq":6,"recordedAt":"#))
        let verify = try CLI.run(["verify", "--store", dir.store])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("chain head: seq 6 sha256:"))
        let stats = try CLI.run(["stats", "--store", dir.store, "--json"])
        #expect(stats.stdout.contains(#""events":6"#) && stats.stdout.contains(#""widget.timeline":2"#))
    }

    @Test("export, ingest into a new store, export again: the same bytes")
    func exportRoundTrip() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var random = RandomEvents(seed: 99)
        let mixed = (0..<800).map { random.line(seqHint: $0) }.joined(separator: "\n") + "\n"
        let input = try dir.write("in.ndjson", workload(3000) + mixed)
        #expect(try CLI.run(["ingest", "--store", dir.store, input]).status == 0)
        let first = try CLI.run(["export", "events", "--store", dir.store])
        #expect(first.status == 0)
        let exported = try dir.write("export.ndjson", first.stdout)
        #expect(try CLI.run(["ingest", "--store", dir.store + "2", exported]).status == 0)
        let second = try CLI.run(["export", "events", "--store", dir.store + "2"])
        #expect(second.stdout == first.stdout)
        #expect(first.stdout.split(separator: "\n").count == 3800)
    }

    @Test("one invalid line rejects the run with file:line:column and field, exit 65, store unchanged")
    func invalidRejectsRun() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let before = try CLI.run(["export", "events", "--store", dir.store]).stdout
        let bad = try dir.write(
            "bad.ndjson",
            """
            {"type":"system.developerMode","time":"2026-03-02T07:00:00Z","enabled":true}
            {"type":"widget.timeline","time":"2026-03-02T08:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T08:00:00Z","relevance":{"score":"high"}}]}
            """)
        let r = try CLI.run(["ingest", "--store", dir.store, bad])
        #expect(r.status == 65)
        #expect(
            r.stderr.contains("bad.ndjson:2:141: field entries[0].relevance.score: must be a number"), "\(r.stderr)")
        #expect(try CLI.run(["export", "events", "--store", dir.store]).stdout == before)
    }

    @Test("--skip-invalid stores the valid lines, lists the rejected ones and exits 65")
    func skipInvalid() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let bad = try dir.write(
            "mixed.ndjson",
            """
            {"type":"system.developerMode","time":"2026-03-02T07:00:00Z","enabled":true}
            {"type":"nope","time":"2026-03-02T07:00:00Z"}
            {"type":"system.developerMode","time":"2026-03-02T08:00:00Z","enabled":false}
            """)
        let r = try CLI.run(["ingest", "--store", dir.store, "--skip-invalid", bad])
        #expect(r.status == 65)
        #expect(r.stdout.contains("stored 2, skipped 0 duplicates, rejected 1"))
        #expect(r.stderr.contains("mixed.ndjson:2:"))
    }

    @Test("standard input is spooled, validated and stored")
    func standardInput() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let text = try String(contentsOfFile: Fixtures.path("scenarios/watch-workout.ndjson"), encoding: .utf8)
        let r = try CLI.run(["ingest", "--store", dir.store, "-"], stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout.contains("stored 7"))
        let bad = try CLI.run(["ingest", "--store", dir.store], stdin: "{oops\n")
        #expect(bad.status == 65 && bad.stderr.contains("-:1:2"))
    }

    @Test("re-ingesting events with ids adds nothing; an id reused with other content is refused")
    func idempotentReingest() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(2000))
        #expect(try CLI.run(["ingest", "--store", dir.store, input]).status == 0)
        let again = try CLI.run(["ingest", "--store", dir.store, input])
        #expect(again.status == 0)
        #expect(again.stdout.contains("stored 0, skipped 2000 duplicates"))
        let conflict = try dir.write(
            "c.ndjson",
            """
            {"type":"system.developerMode","time":"2026-03-02T07:00:00Z","id":"x1","enabled":true}
            {"type":"system.developerMode","time":"2026-03-02T07:00:00Z","id":"x1","enabled":false}
            """)
        let r = try CLI.run(["ingest", "--store", dir.store, conflict])
        #expect(r.status == 65)
        #expect(r.stderr.contains("c.ndjson:2:1: field id: id \"x1\" was already used at"), "\(r.stderr)")
        let stored = try dir.write(
            "s.ndjson",
            #"{"type":"system.developerMode","time":"2026-03-02T07:00:00Z","id":"d0-0-0","enabled":true}"# + "\n")
        let r2 = try CLI.run(["ingest", "--store", dir.store, stored])
        #expect(r2.status == 65 && r2.stderr.contains("already stored as sequence number 1"))
    }

    @Test("verify exits 1 naming the first bad sequence number; commands on a missing store exit 74")
    func exitCodes() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["log", "--store", dir.store]).status == 74)
        #expect(try CLI.run(["log", "--store", dir.store, "--from", "yesterday"]).status == 64)
        #expect(try CLI.run(["ingest", "--store", dir.store, dir.file("missing.ndjson")]).status == 74)
        let input = try dir.write("w.ndjson", workload(500))
        #expect(try CLI.run(["ingest", "--store", dir.store, "--batch-size", "100", input]).status == 0)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: dir.store + "/data.mdb")[.size] as? Int)
        #expect(truncate(dir.store + "/data.mdb", off_t(size - 8192)) == 0)
        let r = try CLI.run(["verify", "--store", dir.store])
        #expect(r.status == 1)
        #expect(r.stdout.contains("truncated"))
    }
}

@Suite("Re-ingest after a partial run")
struct ResumedIngestTests {
    @Test("a rerun whose first batches are all stored still defines the strings later batches introduce")
    func stringsIntroducedAfterDuplicates() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let first = (0..<50).map {
            #"{"type":"app.foreground","time":"2026-03-02T07:00:00Z","app":"com.example.a","id":"a\#($0)"}"#
        }
        let later = (0..<50).map {
            #"{"type":"app.foreground","time":"2026-03-02T08:00:00Z","app":"com.example.new\#($0)","id":"b\#($0)"}"#
        }
        let part = try dir.write("part.ndjson", first.joined(separator: "\n") + "\n")
        let whole = try dir.write("whole.ndjson", (first + later).joined(separator: "\n") + "\n")
        #expect(try CLI.run(["ingest", "--store", dir.store, "--batch-size", "20", part]).status == 0)
        let rerun = try CLI.run(["ingest", "--store", dir.store, "--batch-size", "20", whole])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("stored 50, skipped 50 duplicates"))
        let verify = try CLI.run(["verify", "--store", dir.store])
        #expect(verify.status == 0, "\(verify.stdout)")
        let exported = try CLI.run(["export", "events", "--store", dir.store]).stdout
        #expect(exported == (first + later).joined(separator: "\n") + "\n")
    }
}

@Suite("Skipping lines found invalid after reading")
struct SkipRepeatedIDTests {
    @Test("--skip-invalid with an id given twice with different content stores the rest, in order")
    func repeatedIDSkipped() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = (0..<30).map {
            #"{"type":"app.foreground","time":"2026-03-02T07:00:00Z","app":"com.example.a","id":"e\#($0)"}"#
        }
        let reused = #"{"type":"app.foreground","time":"2026-03-02T09:00:00Z","app":"com.example.b","id":"e3"}"#
        let input = try dir.write("r.ndjson", (lines + [reused]).joined(separator: "\n") + "\n")
        let r = try CLI.run(["ingest", "--store", dir.store, "--skip-invalid", "--batch-size", "7", input])
        #expect(r.status == 65)
        #expect(r.stdout.contains("stored 30, skipped 0 duplicates, rejected 1"))
        #expect(r.stderr.contains("r.ndjson:31:1: field id"))
        #expect(try CLI.run(["verify", "--store", dir.store]).status == 0)
        #expect(try CLI.run(["export", "events", "--store", dir.store]).stdout == lines.joined(separator: "\n") + "\n")
    }
}

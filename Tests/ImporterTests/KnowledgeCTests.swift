import Foundation
import Importers
import LMDBKit
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("knowledgeC.db")
struct KnowledgeCTests {
    static let fixture = "data/knowledgec/knowledgec-10.14.db"

    func importDB(_ path: String, into ledger: Ledger, root: String? = nil, streaming: Bool = false) throws
        -> ImportFileReport
    {
        var options = ImportRun.Options()
        options.root = root
        if streaming { options.committedWhileReadFrom = 0 }
        return try ImportRun(format: .knowledgec, options: options).run(path: path, into: ledger)[0]
    }

    @Test("the macOS 10.14 sample: every inFocus, usage and backlight row, checked against sqlite3")
    func realSample() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let path = try s.copyFixture(Self.fixture, to: "evidence/knowledgeC.db")
        #expect(try md5(path) == "85bbff7248285e6dc42b2c1d760eda45")
        let before = try sha256(path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence")
        let ledger = try s.ledger()
        let report = try importDB(path, into: ledger)
        let streams = "('/app/inFocus','/app/usage','/display/isBacklit')"
        let expected = Int(try sqlite3(path, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME IN \(streams)"))
        #expect(expected == 68)
        #expect(report.imported == expected)
        #expect(report.recordsRead == Int(try sqlite3(path, "SELECT COUNT(*) FROM ZOBJECT")))
        #expect(report.skipped == 24) // /activity/level, /app/activity, /safari/history
        #expect(report.stream == "/app/inFocus,/app/usage,/display/isBacklit")
        // The evidence is untouched: same hash, no journal or shared-memory file beside it.
        #expect(try sha256(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence") == listing)

        let events = try ledger.storedEvents()
        let firstUnix = Double(
            try sqlite3(path, "SELECT MIN(ZSTARTDATE) + 978307200 FROM ZOBJECT WHERE ZSTREAMNAME IN \(streams)"))!
        let lastUnix = Double(
            try sqlite3(path, "SELECT MAX(ZSTARTDATE) + 978307200 FROM ZOBJECT WHERE ZSTREAMNAME IN \(streams)"))!
        let times = events.map(\.envelope.time.microseconds)
        #expect(times.min() == Int64(firstUnix * 1e6))
        #expect(times.max() == Int64(lastUnix * 1e6))
        // ZSECONDSFROMGMT: Pacific standard and daylight time.
        #expect(Set(events.map(\.envelope.time.offsetMinutes)) == [-480, -420])
        let pk = try sqlite3(
            path,
            "SELECT Z_PK || '|' || ZVALUESTRING || '|' || (ZENDDATE - ZSTARTDATE) FROM ZOBJECT WHERE ZSTREAMNAME = '/app/usage' ORDER BY Z_PK LIMIT 1"
        )
        .split(separator: "|").map(String.init)
        let usage = try #require(events.first { $0.envelope.source?.locatorJSON == pk[0] })
        #expect(usage.envelope.app == pk[1])
        #expect(canonical(usage).contains("\"duration\":\(pk[2])"))
        #expect(usage.envelope.source?.stream == "/app/usage")
        let lit = Int(
            try sqlite3(
                path, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME = '/display/isBacklit' AND ZVALUEINTEGER = 1"))!
        #expect(events.filter { canonical($0).contains("\"device\":\"backlight\"},\"active\":true") }.count == lit)
    }

    @Test(
        "an iOS-shaped database: intents, relevant shortcuts, widget views and refreshes, locks; Z_nEVENT from the schema"
    )
    func iosStreams() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        let t = 816_854_400.0 // 2026-11-20T08:00:00Z
        let shortcutA = BiomePayloads.relevantShortcutArchive(
            widgetKind: "CalendarWidget", role: 1, intentClass: nil, providers: [.date(start: t + 5400, end: t + 7200)])
        let shortcutB = BiomePayloads.relevantShortcutArchive(
            widgetKind: "CalendarWidget", role: 0, intentClass: "ShowDayIntent", providers: [.dailyRoutine(1)])
        try sqlite3Write(
            db,
            KnowledgeCFixture.schema + """
                INSERT INTO ZSOURCE VALUES (1, 16, 'com.example.festival', 'g1', NULL, NULL);
                INSERT INTO ZSTRUCTUREDMETADATA VALUES (1, 17, 'FestivalIntent', 'Open', 'D-1', 0, NULL, NULL),
                    (2, 17, NULL, NULL, NULL, NULL, NULL, \(shortcutA.hexLiteral)), (3, 17, NULL, NULL, NULL, NULL, NULL, \(shortcutB.hexLiteral));
                INSERT INTO ZOBJECT VALUES
                    (1, 12, 1, '/app/intents', 'com.example.festival', NULL, \(t), \(t + 1), \(t), 3600, 1, 1, NULL),
                    (2, 12, 1, '/app/relevantShortcuts', 'com.example.calendar', NULL, \(t), \(t), \(t), 3600, 2, NULL, NULL),
                    (3, 12, 1, '/app/relevantShortcuts', 'com.example.calendar', NULL, \(t), \(t), \(t), 3600, 3, NULL, NULL),
                    (4, 12, 1, '/dasd/widgetView', 'WeatherWidget-budget', NULL, \(t + 60), \(t + 72), \(t + 72), 3600, NULL, NULL, NULL),
                    (5, 12, 1, '/dasd/widgetRefresh', 'WeatherWidget-budget', NULL, \(t + 90), \(t + 90), \(t + 90), 3600, NULL, NULL, NULL),
                    (6, 12, 1, '/widgets/viewed', 'com.example.weather.widget', NULL, \(t + 100), \(t + 130), \(t + 130), 3600, NULL, NULL, NULL),
                    (7, 12, 1, '/device/isLocked', NULL, 1, \(t + 200), \(t + 300), \(t + 200), 3600, NULL, NULL, NULL),
                    (8, 12, 1, '/safari/history', 'https://example.com', NULL, \(t), \(t), \(t), 3600, NULL, NULL, NULL);
                INSERT INTO ZCUSTOMMETADATA VALUES (1, 5, 'extensionBundle', 'com.example.weather.widget', NULL, NULL, NULL),
                    (2, 5, 'inStack', NULL, 1, NULL, NULL), (3, 5, 'extensionBundle', 'com.example.weather.widget', NULL, NULL, NULL),
                    (4, 5, 'refreshReason', 'timelineReload', NULL, NULL, NULL), (5, 5, 'isDASInitiated', NULL, 1, NULL, NULL);
                INSERT INTO Z_5EVENT VALUES (1, 4), (2, 4), (3, 5), (4, 5), (5, 5);
                """)
        let ledger = try s.ledger()
        let report = try importDB(db, into: ledger)
        #expect(report.error == nil)
        #expect(report.imported == 6)
        #expect(report.skipped == 1)
        let lines = try ledger.storedEvents().map(canonical)
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "{\"type\":\"intent.donated\",\"time\":\"2026-11-20T09:00:00+01:00\",\"app\":\"com.example.festival\""
                )
                    && $0.contains(
                        "\"api\":\"siriKit\",\"intent\":{\"intent\":\"FestivalIntent\"},\"donationId\":\"D-1\",\"groupIdentifier\":\"g1\""
                    )
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"shortcuts.relevantSet\"") && $0.contains("\"locator\":2")
                    && $0.contains(
                        "[{\"widgetKind\":\"CalendarWidget\",\"role\":\"information\",\"intent\":null,\"relevanceProviders\":[{\"date\":{\"start\":\"2026-11-20T09:30:00Z\",\"end\":\"2026-11-20T10:00:00Z\"}}]},{\"widgetKind\":\"CalendarWidget\",\"intent\":{\"intent\":\"ShowDayIntent\"},\"relevanceProviders\":[{\"dailyRoutine\":\"evening\"}]}]"
                    )
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"widget.viewed\"") && $0.contains("\"app\":\"com.example.weather.widget\"")
                    && $0.contains("\"kind\":\"WeatherWidget-budget\",\"duration\":12,\"inStack\":true")
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"widget.reloaded\"")
                    && $0.contains(
                        "\"kind\":\"WeatherWidget-budget\",\"reason\":\"timelineReload\",\"isDASInitiated\":true")
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"widget.viewed\"")
                    && $0.contains("\"kind\":\"com.example.weather.widget\",\"duration\":30")
            })
        #expect(lines.contains { $0.contains("\"context\":{\"device\":\"locked\"},\"active\":true") })
    }

    @Test("a database with a write-ahead log: its committed rows are read, and neither file changes")
    func writeAheadLog() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        try FileManager.default.createDirectory(atPath: s.path + "/evidence", withIntermediateDirectories: true)
        let script = """
            import shutil, sqlite3, sys
            src, dst = sys.argv[1], sys.argv[2]
            c = sqlite3.connect(src)
            c.execute("PRAGMA journal_mode=WAL")
            c.executescript(sys.stdin.read())
            c.commit()
            c.execute("PRAGMA wal_autocheckpoint=0")
            c.execute("INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZVALUEINTEGER, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT) VALUES (2, '/app/inFocus', 'com.example.late', NULL, 816854500, 816854560, 0)")
            c.commit()
            shutil.copy(src, dst)
            shutil.copy(src + "-wal", dst + "-wal")
            c.close()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, s.path + "/live.db", s.path + "/evidence/knowledgeC.db"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(
            Data(
                (KnowledgeCFixture.schema
                    + "INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZSECONDSFROMGMT) VALUES (1, '/app/inFocus', 'com.example.early', 816854400, 0);")
                    .utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let path = s.path + "/evidence/knowledgeC.db"
        let wal = try sha256(path + "-wal")
        let main = try sha256(path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence").sorted()
        #expect(listing == ["knowledgeC.db", "knowledgeC.db-wal"])
        let ledger = try s.ledger()
        let report = try importDB(path, into: ledger)
        #expect(report.imported == 2)
        #expect(try ledger.storedEvents().map(\.envelope.app) == ["com.example.early", "com.example.late"])
        #expect(try sha256(path + "-wal") == wal && sha256(path) == main)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence").sorted() == listing)
    }

    @Test("a file that is not a knowledgeC database imports nothing and says why", arguments: ["text", "other-sqlite"])
    func notKnowledgeC(_ kind: String) throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let path = s.path + "/knowledgeC.db"
        if kind == "text" {
            try s.write("knowledgeC.db", Array("this is not a database, just text that goes on for a while\n".utf8))
        } else {
            try sqlite3Write(path, "CREATE TABLE t (x);")
        }
        let ledger = try s.ledger()
        let report = try importDB(path, into: ledger)
        #expect(report.error?.contains(kind == "text" ? "not a readable SQLite database" : "no ZOBJECT table") == true)
        #expect(try ledger.lastStoredSeq() == 0)
    }

    @Test(
        "rows whose values are of the wrong kind, out of range or too long each fail alone, saying which column holds what; the rest import"
    )
    func hostileRows() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        let start = 816_854_400.0
        // (Z_PK, stream, ZVALUESTRING, ZVALUEINTEGER, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT, ZSTRUCTUREDMETADATA)
        let rows: [(Int, String, String, String, String, String, String, String)] = [
            (1, "'/app/inFocus'", "'com.example.good'", "1", "\(start)", "\(start + 60)", "3600", "NULL"),
            (2, "'/app/inFocus'", "'com.example.app'", "1", "'not a date'", "\(start + 60)", "3600", "NULL"),
            (3, "'/app/inFocus'", "X'ff00fe41'", "1", "\(start)", "\(start + 60)", "3600", "NULL"),
            (4, "'/app/inFocus'", "CAST(X'c328' AS TEXT)", "1", "\(start)", "\(start + 60)", "3600", "NULL"),
            (5, "'/app/inFocus'", "'com.example.app'", "1", "\(start + 60)", "\(start)", "3600", "NULL"),
            (6, "'/app/inFocus'", "'com.example.app'", "1", "\(start)", "\(start + 60)", "99999999999", "NULL"),
            (7, "'/app/inFocus'", "'com.example.app'", "1", "1e300", "1e300", "3600", "NULL"),
            (8, "'/app/inFocus'", "'com.example.app'", "1", "NULL", "\(start)", "3600", "NULL"),
            (9, "'/display/isBacklit'", "NULL", "'yes'", "\(start)", "\(start + 60)", "3600", "NULL"),
            (10, "'/display/isBacklit'", "NULL", "0.5", "\(start)", "\(start + 60)", "3600", "NULL"),
            (11, "'/app/inFocus'", "printf('%.5000c', 'x')", "1", "\(start)", "\(start + 60)", "3600", "NULL"),
            (12, "'/app/intents'", "'com.example.app'", "1", "\(start)", "\(start + 60)", "3600", "1"),
            (13, "'/display/isBacklit'", "NULL", "1.0", "\(start)", "\(start + 60)", "3600", "NULL"),
        ]
        let inserts = rows.map { r in
            "INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZVALUESTRING, ZVALUEINTEGER, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT, ZSTRUCTUREDMETADATA) VALUES (\(r.0), 12, 1, \(r.1), \(r.2), \(r.3), \(r.4), \(r.5), \(r.6), \(r.7));"
        }
        try sqlite3Write(
            db,
            KnowledgeCFixture.schema + inserts.joined(separator: "\n")
                + "INSERT INTO ZSTRUCTUREDMETADATA (Z_PK, Z_ENT, Z_DKINTENTMETADATAKEY__INTENTCLASS) VALUES (1, 17, X'00');"
        )
        let ledger = try s.ledger()
        let report = try importDB(db, into: ledger)
        let expected = [
            "2: /app/inFocus row: ZSTARTDATE holds the text \"not a date\", not a number",
            "3: /app/inFocus row: ZVALUESTRING holds a BLOB, not text",
            "4: /app/inFocus row: ZVALUESTRING holds text that is not valid UTF-8",
            "5: /app/inFocus row ends (ZENDDATE \(start)) before it starts (ZSTARTDATE \(start + 60))",
            "6: /app/inFocus row: ZSECONDSFROMGMT 99999999999 is not an offset from UTC (under a day)",
            "7: /app/inFocus row: ZSTARTDATE 1e+300 (seconds from 2001) is not a time within 1970-2200",
            "8: /app/inFocus row has no time (ZSTARTDATE is NULL)",
            "9: /display/isBacklit row: ZVALUEINTEGER holds the text \"yes\", not an integer",
            "10: /display/isBacklit row: ZVALUEINTEGER holds 0.5, not an integer",
            "11: field app: exceeds the limit of 4096 bytes for a string (as JSON writes it)",
            "12: /app/intents row: Z_DKINTENTMETADATAKEY__INTENTCLASS holds a BLOB, not text",
        ]
        for line in expected { #expect(report.problems.contains(line), "\(report.problems)") }
        #expect(report.failed == expected.count)
        #expect(report.imported == 2)
        let stored = try ledger.storedEvents().map(\.canonicalJSON)
        #expect(stored.count == 2)
        #expect(stored.contains { $0.contains(#""app":"com.example.good""#) })
        #expect(stored.contains { $0.contains(#""active":true"#) })
    }

    @Test("a widget row whose custom metadata holds the wrong kind of value fails alone, naming the value")
    func hostileCustomMetadata() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        let t = 816_854_400.0
        try sqlite3Write(
            db,
            KnowledgeCFixture.schema + """
                INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT) VALUES
                  (1, 12, 1, '/dasd/widgetView', 'com.example.widget-budget', \(t), \(t + 5), 0),
                  (2, 12, 1, '/dasd/widgetView', 'com.example.widget-budget', \(t + 10), \(t + 15), 0),
                  (3, 12, 1, '/dasd/widgetView', 'com.example.widget-budget', \(t + 20), \(t + 25), 0),
                  (4, 12, 1, '/dasd/widgetRefresh', 'com.example.widget-budget', \(t + 30), \(t + 30), 0);
                INSERT INTO ZCUSTOMMETADATA (Z_PK, Z_ENT, ZNAME, ZSTRINGVALUE, ZINTEGERVALUE) VALUES
                  (11, 5, 'inStack', NULL, 1), (12, 5, 'extensionBundle', 'com.example.widget', NULL),
                  (21, 5, 'inStack', 'yes', NULL),
                  (31, 5, 'extensionBundle', X'00ff', NULL),
                  (41, 5, 'isDASInitiated', NULL, '1x');
                INSERT INTO Z_5EVENT VALUES (11, 1), (12, 1), (21, 2), (31, 3), (41, 4);
                """)
        let ledger = try s.ledger()
        let report = try importDB(db, into: ledger)
        for line in [
            "2: /dasd/widgetView row: its custom metadata inStack holds the text \"yes\", not an integer",
            "3: /dasd/widgetView row: its custom metadata (Z_PK 31): ZCUSTOMMETADATA.ZSTRINGVALUE holds a BLOB, not text",
            "4: /dasd/widgetRefresh row: its custom metadata (Z_PK 41): ZCUSTOMMETADATA.ZINTEGERVALUE holds the text \"1x\", not an integer",
        ] {
            #expect(report.problems.contains(line), "\(report.problems)")
        }
        #expect(report.imported == 1 && report.failed == 3)
        let stored = try ledger.storedEvents().map(\.canonicalJSON)
        #expect(
            stored.count == 1 && stored[0].contains(#""app":"com.example.widget""#)
                && stored[0].contains(#""inStack":true"#), "\(stored)")
    }

    @Test("a generated 5,000-row database: one event per row of a read stream")
    func bulk() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        try sqlite3Write(db, KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(5_000, start: 816_854_400))
        let ledger = try s.ledger()
        let report = try importDB(db, into: ledger)
        let read = Int(try sqlite3(db, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME != '/safari/history'"))!
        #expect(report.imported == read)
        #expect(report.skipped == 5_000 - read)
        #expect(report.failed == 0)
        let refreshes = try ledger.storedEvents().filter { $0.envelope.type == "widget.reloaded" }
        #expect(
            refreshes.count
                == Int(try sqlite3(db, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME = '/dasd/widgetRefresh'")))
        #expect(refreshes.allSatisfy { canonical($0).contains("\"reason\":\"timeline\"") })
    }

    @Test("rows of sixty streams not read, some with long names, are each counted under their stream")
    func manyStreamsNotRead() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        // Three rows for each of 60 streams, interleaved with one another.
        let extra = """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 179)
            INSERT INTO ZOBJECT (Z_PK, Z_ENT, Z_OPT, ZSTREAMNAME, ZSTARTDATE)
            SELECT 10000 + i, 12, 1,
                CASE WHEN i % 60 < 30 THEN '/other/s' || (i % 60)
                     ELSE '/a/stream/name/longer/than/the/cache/keeps/whole/' || (i % 60) END,
                816854400 + i FROM n;
            """
        try sqlite3Write(db, KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(2_000, start: 816_854_400) + extra)
        let ledger = try s.ledger()
        let report = try importDB(db, into: ledger)
        let read = Int(
            try sqlite3(
                db,
                "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME NOT LIKE '/other/%' AND ZSTREAMNAME NOT LIKE '/a/stream/%' AND ZSTREAMNAME != '/safari/history'"
            ))!
        #expect(report.imported == read && report.failed == 0)
        #expect(report.skipped == 2_180 - read)
        for k in [0, 29] {
            #expect(report.problems.contains("/other/s\(k): 3 rows of a stream StackLedger does not read"))
        }
        for k in [30, 59] {
            #expect(
                report.problems.contains(
                    "/a/stream/name/longer/than/the/cache/keeps/whole/\(k): 3 rows of a stream StackLedger does not read"
                ))
        }
        #expect(report.problems.filter { $0.hasSuffix("rows of a stream StackLedger does not read") }.count == 61)
    }

    @Test("a database whose events pass 4 MiB is stored from its spilled batches in one commit, and again adds nothing")
    func spilled() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        try sqlite3Write(db, KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(60_000, start: 816_854_400))
        let ledger = try s.ledger()
        let read = Int(try sqlite3(db, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME != '/safari/history'"))!
        let lines = KnowledgeCImporter.read(path: db, context: ArtifactContext(sha256: "", path: "knowledgeC.db"))
            .spooled
        #expect(lines.isSpilled && lines.count == read)
        let first = try importDB(db, into: ledger)
        #expect(first.imported == read && first.failed == 0)
        // One commit: the whole file is one batch of the chain.
        #expect(try ledger.read { try $0.batches() }.count == 1)
        let stored = try ledger.storedEvents()
        #expect(stored.count == read)
        #expect(zip(stored, stored.dropFirst()).allSatisfy { a, b in (a.envelope.id ?? "") != (b.envelope.id ?? "") })
        let again = try importDB(db, into: ledger)
        #expect(again.imported == 0 && again.duplicates == read)
    }

    @Test(
        "a spilled database stored into a store whose map must grow keeps every event, committed after or while it is read",
        arguments: [false, true])
    func spilledIntoAGrowingMap(streaming: Bool) throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/knowledgeC.db"
        try sqlite3Write(db, KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(60_000, start: 816_854_400))
        let ledger = try Ledger(
            path: s.path + "/store",
            options: .init(environment: .init(initialMapSize: 1 << 20, growsAutomatically: true)))
        let read = Int(try sqlite3(db, "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME != '/safari/history'"))!
        let report = try importDB(db, into: ledger, streaming: streaming)
        #expect(report.imported == read && report.duplicates == 0 && report.failed == 0)
        #expect(try ledger.storedEvents().count == read)
        #expect(try ledger.read { try $0.batches() }.count == 1)
        #expect(try ledger.verify().isIntact)
    }

    @Test(
        "of several databases read together, one whose id is stored with other content imports nothing; the others import whole",
        arguments: [false, true])
    func oneFileRefusedAmongOthers(streaming: Bool) throws {
        let s = try Scratch()
        defer { s.cleanup() }
        try FileManager.default.createDirectory(atPath: s.path + "/dbs", withIntermediateDirectories: true)
        for (k, name) in ["a", "b", "c"].enumerated() {
            try sqlite3Write(
                s.path + "/dbs/\(name).db",
                KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(400, start: 816_854_400 + Double(k) * 100_000))
        }
        // The first event of b.db, stored before with another time: its id now names other content.
        let alone = try Ledger(path: s.path + "/alone")
        _ = try importDB(s.path + "/dbs/b.db", into: alone, root: s.path + "/dbs")
        var forged = try #require(try alone.storedEvents().first)
        forged.envelope.time = Timestamp(microseconds: forged.envelope.time.microseconds + 1_000_000)
        let ledger = try s.ledger()
        _ = try ledger.append([forged])

        var options = ImportRun.Options()
        options.root = s.path + "/dbs"
        if streaming { options.committedWhileReadFrom = 0 }
        let reports = try ImportRun(format: .knowledgec, options: options).run(path: s.path + "/dbs", into: ledger)
        #expect(reports.map(\.path) == ["a.db", "b.db", "c.db"])
        #expect(reports[0].error == nil && reports[2].error == nil)
        #expect(reports[0].imported == reports[0].events && reports[2].imported == reports[2].events)
        #expect(reports[1].imported == 0 && (reports[1].error ?? "").contains("nothing from this file was imported"))
        let stored = try ledger.storedEvents()
        #expect(stored.count == 1 + reports[0].events + reports[2].events)
        #expect(stored.filter { $0.envelope.source?.path == "b.db" }.count == 1)
    }

    @Test(
        "a database that cannot be read, among others committed while they are read, imports nothing; the others import whole"
    )
    func unreadableAmongStreamed() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        try FileManager.default.createDirectory(atPath: s.path + "/dbs", withIntermediateDirectories: true)
        try sqlite3Write(
            s.path + "/dbs/a.db", KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(3000, start: 816_854_400))
        _ = try s.write("dbs/b.db", Array(repeating: 0x42, count: 100_000))
        try sqlite3Write(
            s.path + "/dbs/c.db", KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(3000, start: 817_000_000))
        var options = ImportRun.Options()
        options.root = s.path + "/dbs"
        options.committedWhileReadFrom = 0
        let ledger = try s.ledger()
        let reports = try ImportRun(format: .knowledgec, options: options).run(path: s.path + "/dbs", into: ledger)
        #expect(reports.map(\.path) == ["a.db", "b.db", "c.db"])
        #expect(reports[1].error != nil && reports[1].imported == 0)
        #expect(
            reports[0].imported == reports[0].events && reports[2].imported == reports[2].events
                && reports[0].events > 0)
        #expect(try ledger.storedEvents().count == reports[0].events + reports[2].events)
        #expect(try ledger.verify().isIntact)
    }
}

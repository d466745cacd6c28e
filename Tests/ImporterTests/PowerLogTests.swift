import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("PowerLog")
struct PowerLogTests {
    static let fixture = "data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"
    static let stats = "PLApplicationAgent_EventBackward_WidgetStats"

    @Test("the iOS 15 sample: 16 WidgetStats rows become stack.observed, checked against sqlite3")
    func realSample() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let path = try s.copyFixture(
            Self.fixture, to: "private/var/containers/Shared/SystemGroup/PowerLog/CurrentPowerlog.PLSQL")
        #expect(try md5(path) == "9436fb63a4289cd7073585bb49e0d2ba")
        let before = try sha256(path)
        let ledger = try s.ledger()
        var options = ImportRun.Options()
        options.root = s.path
        options.device = "j210"
        let report = try ImportRun(format: .powerlog, options: options).run(path: path, into: ledger)[0]
        let rows = Int(try sqlite3(path, "SELECT COUNT(*) FROM \(Self.stats)"))!
        #expect(rows == 16)
        #expect(report.imported == rows && report.recordsRead == rows)
        #expect(try sha256(path) == before)
        let events = try ledger.storedEvents()
        #expect(events.allSatisfy { $0.envelope.type == "stack.observed" && $0.envelope.device == "j210" })
        let first = Double(try sqlite3(path, "SELECT printf('%.17g', MIN(timestamp)) FROM \(Self.stats)"))!
        let last = Double(try sqlite3(path, "SELECT printf('%.17g', MAX(timestamp)) FROM \(Self.stats)"))!
        #expect(events.map(\.envelope.time.microseconds).min() == Int64((first * 1e6).rounded()))
        #expect(events.map(\.envelope.time.microseconds).max() == Int64((last * 1e6).rounded()))
        let inStack = Int(try sqlite3(path, "SELECT COUNT(*) FROM \(Self.stats) WHERE isInStack = 1"))!
        #expect(events.filter { canonical($0).contains("\"inStack\":true") }.count == inStack)
        // The Weather row, found and read by the sqlite3 shell, not by the importer.
        let row = try sqlite3(
            path,
            "SELECT ID || '|' || bundleID || '|' || kind || '|' || printf('%.17g', totalTimeSpentOnScreen) || '|' || identifier || '|' || isInStack FROM \(Self.stats) WHERE bundleID LIKE '%weather%' ORDER BY ID LIMIT 1"
        )
        let cells = row.split(separator: "|").map(String.init)
        #expect(cells.count == 6)
        let weather = try #require(events.first { $0.envelope.source?.locatorJSON == cells[0] })
        let text = canonical(weather)
        #expect(weather.envelope.app == cells[1])
        let seconds = try #require(Double(cells[3]))
        #expect(
            text.contains(
                "\"kind\":\"\(cells[2])\",\"onScreen\":true,\"duration\":\(CanonicalWriter.text(of: .number(seconds))),\"scope\":\"\(cells[5] == "1" ? "stack" : "top")\",\"inStack\":\(cells[5] == "1"),\"widgetIdentifier\":\"\(cells[4])\""
            ), "\(text)")
        #expect(
            weather.envelope.source?.path == "private/var/containers/Shared/SystemGroup/PowerLog/CurrentPowerlog.PLSQL")
        #expect(weather.envelope.source?.stream == Self.stats)
    }

    @Test("WidgetUpdates and SuggestedWidgetReload rows become widget.reloaded with budget and reason")
    func reloads() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/CurrentPowerlog.PLSQL"
        try sqlite3Write(
            db,
            """
            CREATE TABLE 'PLApplicationAgent_EventPoint_WidgetUpdates' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'bundleID' TEXT, 'cost' INTEGER, 'identifier' TEXT, 'kind' TEXT, 'reason' INTEGER, 'remainingBudget' INTEGER, 'suggestionIdentifier' TEXT);
            CREATE TABLE 'PLApplicationAgent_EventPoint_SuggestedWidgetReload' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'bundleID' TEXT, 'kind' TEXT, 'size' INTEGER, 'suggestionIdentifier' TEXT);
            INSERT INTO PLApplicationAgent_EventPoint_WidgetUpdates VALUES (1, 1795161600.5, 'com.example.cards.widget', 1, 'W-1', 'CardWidget', 2, 41, NULL);
            INSERT INTO PLApplicationAgent_EventPoint_WidgetUpdates VALUES (2, 1795161700, 'com.example.cards.widget', 1, 'W-1', NULL, 2, 40, NULL);
            INSERT INTO PLApplicationAgent_EventPoint_SuggestedWidgetReload VALUES (1, 1795161800, 'com.example.calendar.widget', 'CalendarWidget', 1, 'S-9');
            """)
        let ledger = try s.ledger()
        let report = try ImportRun(format: .powerlog).run(path: db, into: ledger)[0]
        #expect(report.imported == 2 && report.failed == 1)
        #expect(report.problems.first?.hasPrefix("2: ") == true)
        let lines = try ledger.storedEvents().map(canonical)
        #expect(
            lines[0].contains("\"time\":\"2026-11-20T08:00:00.5Z\"")
                && lines[0].contains(
                    "\"kind\":\"CardWidget\",\"reason\":\"powerlog:2\",\"budgetRemaining\":41,\"cost\":1,\"widgetIdentifier\":\"W-1\""
                ))
        #expect(
            lines[1].contains(
                "\"kind\":\"CalendarWidget\",\"reason\":\"suggestedWidget\",\"size\":1,\"suggestionIdentifier\":\"S-9\""
            ))
    }

    @Test("a WidgetStats row whose time on screen the contract cannot hold fails alone, named by its row")
    func hugeTimeOnScreen() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/CurrentPowerlog.PLSQL"
        try sqlite3Write(
            db,
            """
            CREATE TABLE '\(Self.stats)' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'bundleID' TEXT, 'kind' TEXT, 'isInStack' INTEGER, 'totalTimeSpentOnScreen' REAL, 'identifier' TEXT, 'size' INTEGER, 'location' INTEGER, 'page' INTEGER, 'suggestionIdentifier' TEXT);
            INSERT INTO '\(Self.stats)' VALUES (1, 1795161600, 'com.apple.weather.widget', 'eather', 1, 1e15, 'W-1', 1, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (2, 1795161700, 'com.apple.weather.widget', 'eather', 1, 64.5, 'W-1', 1, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (3, 1000, 'com.apple.weather.widget', 'eather', 1, 3600, 'W-1', 1, 0, 0, NULL);
            """)
        let ledger = try s.ledger()
        let report = try ImportRun(format: .powerlog).run(path: db, into: ledger)[0]
        #expect(report.imported == 1 && report.failed == 2)
        #expect(report.problems.contains { $0.hasPrefix("1: ") && $0.contains("at most 315576000 s") })
        #expect(report.problems.contains { $0.hasPrefix("3: ") && $0.contains("before 1970") })
        #expect(try ledger.storedEvents().map(canonical).allSatisfy { $0.contains("\"duration\":64.5") })
    }

    @Test("a row whose column holds the wrong kind of value fails alone, naming the column; SQLite would read it as 0")
    func wrongKindOfValue() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let db = s.path + "/CurrentPowerlog.PLSQL"
        try sqlite3Write(
            db,
            """
            CREATE TABLE '\(Self.stats)' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp', 'bundleID', 'kind', 'isInStack', 'totalTimeSpentOnScreen', 'identifier', 'size', 'location', 'page', 'suggestionIdentifier');
            INSERT INTO '\(Self.stats)' VALUES (1, 'yesterday', 'com.apple.weather.widget', 'eather', 1, 64.5, 'W-1', 1, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (2, 1795161700, X'00ff', 'eather', 1, 64.5, 'W-1', 1, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (3, 1795161700, 'com.apple.weather.widget', 'eather', 'no', 64.5, 'W-1', 1, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (4, 1795161700, 'com.apple.weather.widget', 'eather', 1, 64.5, 'W-1', 1.5, 0, 0, NULL);
            INSERT INTO '\(Self.stats)' VALUES (5, 1795161800, 'com.apple.weather.widget', 'eather', 1, 30, 'W-1', 1.0, 0, 0, NULL);
            """)
        let ledger = try s.ledger()
        let report = try ImportRun(format: .powerlog).run(path: db, into: ledger)[0]
        for line in [
            "1: \(Self.stats) row: timestamp holds the text \"yesterday\", not a number",
            "2: \(Self.stats) row: bundleID holds a BLOB, not text",
            "3: \(Self.stats) row: isInStack holds the text \"no\", not an integer",
            "4: \(Self.stats) row: size holds 1.5, not an integer",
        ] {
            #expect(report.problems.contains(line), "\(report.problems)")
        }
        #expect(report.imported == 1 && report.failed == 4)
        #expect(try ledger.storedEvents().map(canonical).allSatisfy { $0.contains(#""duration":30"#) })
    }

    @Test("a database without the PowerLog widget tables imports nothing and says so")
    func notPowerLog() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let report = try ImportRun(format: .powerlog).run(
            path: try s.copyFixture(KnowledgeCTests.fixture, to: "x.PLSQL"), into: try s.ledger())[0]
        #expect(report.error?.contains("none of the PowerLog widget tables") == true)
    }
}

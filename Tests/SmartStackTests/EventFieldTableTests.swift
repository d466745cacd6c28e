import Foundation
import StackLedgerTesting
import Testing

@testable import SmartStack

@Suite("Event field tables")
struct EventFieldTableTests {
    @Test("docs/event-fields.md is the tables the event types' descriptions make")
    func documentMatches() throws {
        let path = Fixtures.repositoryRoot + "/docs/event-fields.md"
        if ProcessInfo.processInfo.environment["STACKLEDGER_UPDATE_DOCS"] != nil {
            try FieldTable.document.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        let made = FieldTable.document
        if kept != made {
            let keptLines = kept.split(separator: "\n", omittingEmptySubsequences: false)
            let madeLines = made.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                zip(keptLines, madeLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(keptLines.count, madeLines.count)
            Issue.record(
                """
                docs/event-fields.md differs from the descriptions at line \(first + 1); \
                `STACKLEDGER_UPDATE_DOCS=1 swift test --filter EventFieldTable` writes it
                """)
        }
    }

    @Test("a described field is read from its key, written under it, and kept in the stored form")
    func describedFieldsRoundTrip() throws {
        var decoder = EventDecoder()
        let line =
            #"{"type":"stack.observed","time":"2026-03-02T06:00:19Z","stack":"s1","instance":"w1","onScreen":true,"duration":4,"scope":"stack"}"#
        let event = try decoder.decode(line)
        guard case .stackObserved(let o) = event.body else {
            Issue.record("not a stack.observed")
            return
        }
        #expect(
            o.stack == "s1" && o.instance == "w1" && o.onScreen && o.duration == 4 && o.scope == .stack
                && o.flags == 0b111)
        #expect(event.canonicalJSON == line)
    }

    @Test("every event type has a table, and required fields say so")
    func everyTypeHasRows() {
        for type in EventType.allCases {
            let rows = FieldTable.rows(of: type)
            #expect(Set(rows.map(\.key)).count == rows.count, "\(type.rawValue) lists a key twice")
        }
        let created = FieldTable.rows(of: .stackCreated)
        #expect(created.map(\.key) == ["stack", "platform", "family", "smartRotate", "widgetSuggestions"])
        #expect(created[0].summary.presence == "required")
        #expect(created[3].summary.presence == "optional, default `true`")
        #expect(
            FieldTable.rows(of: .donationsDeleted).map(\.key) == ["donationIds", "intent", "groupIdentifier", "all"])
    }
}

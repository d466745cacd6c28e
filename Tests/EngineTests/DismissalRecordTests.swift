import Foundation
import SmartStack
import StackLedgerTesting
import Testing

/// `suggestion.dismissed` as the device records it (DuetExpertCenter
/// `widgetSuggestionDismiss`): no stack, no instance, the widget named by app or extension
/// and kind (docs/events.md, "StackLedger's reading" of dismissals).
@Suite("Dismissals the device recorded")
struct DismissalRecordTests {
    static let scenario = "scenarios/calendar-suggestion.ndjson"
    static let calendar = "sys:com.example.calendar/CalendarWidget"

    func harness(_ extra: [String]) throws -> EngineHarness {
        var text = try String(contentsOfFile: Fixtures.path(Self.scenario), encoding: .utf8)
        for line in extra { text += line + "\n" }
        return try EngineHarness(text: text)
    }

    func suggested(_ h: EngineHarness, at time: String) throws -> [String] {
        try #require(try h.stack("home-1", at: time)).widgets.filter(\.suggested).map(\.widget.instance)
    }

    @Test("without stack and instance, the dismissal removes the suggestion it names and holds its kind back")
    func withoutStack() throws {
        let dismissal =
            #"{"type":"suggestion.dismissed","time":"2026-03-02T09:36:00Z","app":"com.example.calendar","kind":"CalendarWidget"}"#
        let h = try harness([dismissal])
        #expect(try suggested(h, at: "2026-03-02T09:35:00Z") == [Self.calendar])
        #expect(try suggested(h, at: "2026-03-02T09:40:00Z").isEmpty)
        // A later relevance window within the cooldown suggests nothing.
        let again =
            #"{"type":"shortcuts.relevantSet","time":"2026-03-02T10:30:00Z","app":"com.example.calendar","shortcuts":[{"widgetKind":"CalendarWidget","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-03-02T11:00:00Z","end":"2026-03-02T11:30:00Z"}}]}]}"#
        #expect(try suggested(try harness([again]), at: "2026-03-02T11:10:00Z") == [Self.calendar])
        #expect(try suggested(try harness([dismissal, again]), at: "2026-03-02T11:10:00Z").isEmpty)
    }

    @Test("a dismissal that names only an extension no widget of the model has changes nothing")
    func unknownExtension() throws {
        let h = try harness([
            #"{"type":"suggestion.dismissed","time":"2026-03-02T09:36:00Z","extension":"com.example.calendar.widgets","kind":"CalendarWidget"}"#
        ])
        #expect(try suggested(h, at: "2026-03-02T09:40:00Z") == [Self.calendar])
    }

    @Test("the contract's form is kept: a dismissal without app or extension is refused, naming the field")
    func validation() throws {
        var decoder = EventDecoder()
        #expect(throws: FieldError.self) {
            _ = try decoder.decode(
                #"{"type":"suggestion.dismissed","time":"2026-03-02T09:36:00Z","kind":"CalendarWidget"}"#)
        }
        let event = try decoder.decode(
            #"{"type":"suggestion.dismissed","time":"2026-03-02T09:36:00Z","extension":"com.x.widget","kind":"K"}"#)
        #expect(event.extensionBundle == "com.x.widget")
        guard case .suggestionDismissed(let dismissal) = event.body else {
            Issue.record("decoded as \(event.body)")
            return
        }
        #expect(dismissal.stack == nil && dismissal.instance == nil && dismissal.kind == "K")
    }
}

import Foundation
import SmartStack
import StackLedgerTesting
import Testing

/// The outcomes that `Tests/Fixtures/scenarios/README.md` states.
@Suite("Scenarios")
struct ScenarioTests {
    func harness(_ name: String) throws -> EngineHarness {
        try EngineHarness(text: try String(contentsOfFile: Fixtures.path("scenarios/\(name).ndjson"), encoding: .utf8))
    }

    @Test(
        "cards-day: Weather at 07:00, Cards at 09:45 citing the 08:10 timeline, kept after 10:11, nothing between 08:00 and 09:41"
    )
    func cardsDay() throws {
        let h = try harness("cards-day")
        let at7 = try #require(try h.stack("home-1", at: "2026-03-02T07:00:00Z"))
        #expect(at7.top?.widget.kind == "WeatherWidget")
        #expect(at7.widgets.first { $0.widget.kind == "WeatherWidget" }?.relevance?.score == 10)
        let at945 = try #require(try h.stack("home-1", at: "2026-03-02T09:45:00Z"))
        #expect(at945.top?.widget.kind == "CardRecentPurchasesWidget")
        #expect(at945.decision?.reasons.first?.code == "RELEVANCE_SCORE")
        #expect(at945.decision?.reasons.first?.events == [6])
        let at1020 = try #require(try h.stack("home-1", at: "2026-03-02T10:20:00Z"))
        #expect(at1020.top?.widget.kind == "CardRecentPurchasesWidget")
        #expect(at1020.widgets.allSatisfy { $0.relevance == nil })
        let at820 = try #require(try h.stack("home-1", at: "2026-03-02T08:20:00Z"))
        #expect(at820.widgets.allSatisfy { $0.relevance == nil })
        let early = try h.decisions(through: "2026-03-02T09:40:59Z")
        #expect(early.isEmpty)
    }

    @Test(
        "calendar-suggestion: suggested at 09:35 citing the shortcut set, gone at 10:05, absent when a later set omits it"
    )
    func calendar() throws {
        let h = try harness("calendar-suggestion")
        let at935 = try #require(try h.stack("home-1", at: "2026-03-02T09:35:00Z"))
        #expect(at935.top?.widget.instance == "sys:com.example.calendar/CalendarWidget")
        #expect(at935.widgets.first?.suggested == true && at935.widgets.first?.position == 0)
        #expect(
            at935.decision?.reasons.first?.code == "RELEVANT_SHORTCUT" && at935.decision?.reasons.first?.events == [4])
        let at1005 = try #require(try h.stack("home-1", at: "2026-03-02T10:05:00Z"))
        #expect(at1005.widgets.map(\.widget.instance) == ["w-weather", "w-reminders"])
        var lines = try String(contentsOfFile: Fixtures.path("scenarios/calendar-suggestion.ndjson"), encoding: .utf8)
        lines +=
            #"{"type":"shortcuts.relevantSet","time":"2026-03-02T09:00:00Z","app":"com.example.calendar","shortcuts":[]}"#
            + "\n"
        let omitted = try EngineHarness(text: lines)
        #expect(try omitted.stack("home-1", at: "2026-03-02T09:35:00Z")?.widgets.allSatisfy { !$0.suggested } == true)
    }

    @Test(
        "watch-workout: PaceWidget card at 18:10 citing the relevant intents and the context, gone at 19:00; nothing on iOS; nothing without permission"
    )
    func watchWorkout() throws {
        let h = try harness("watch-workout")
        let at1810 = try #require(try h.stack("watch", at: "2026-03-02T18:10:00Z"))
        #expect(at1810.top?.widget.kind == "PaceWidget" && at1810.top?.suggested == true)
        let reason = try #require(at1810.decision?.reasons.first)
        #expect(reason.code == "RELEVANT_CONTEXT" && reason.events.contains(5) && reason.events.contains(6))
        #expect(try h.stack("watch", at: "2026-03-02T19:00:00Z")?.widgets.allSatisfy { !$0.suggested } == true)
        let text = try String(contentsOfFile: Fixtures.path("scenarios/watch-workout.ndjson"), encoding: .utf8)
        let ios = try EngineHarness(
            text: text.replacingOccurrences(of: "watchOS", with: "iOS").replacingOccurrences(
                of: "accessoryRectangular", with: "systemSmall"))
        #expect(try ios.stack("watch", at: "2026-03-02T18:10:00Z")?.widgets.allSatisfy { !$0.suggested } == true)
        #expect(
            try h.stack("watch", at: "2026-03-02T18:10:00Z", without: [4])?.widgets.allSatisfy { !$0.suggested } == true
        )
    }
}

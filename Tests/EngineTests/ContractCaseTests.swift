import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// Minimal logs where only documented rules decide, each with the outcome the contract
/// (`docs/events.md`, `docs/smart-stack-model.md`) gives, not the one the engine printed.
@Suite("Contract cases")
struct ContractCaseTests {
    static func at(_ clock: String) -> String { "2026-05-04T\(clock):00Z" }

    static let twoWidgets = [
        #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s1","widget":{"instance":"w1","app":"a","kind":"K","family":"systemSmall","configuration":null}}"#,
        #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s1","widget":{"instance":"w2","app":"b","kind":"L","family":"systemSmall","configuration":null}}"#,
    ]

    @Test("T1: a kind timeline replaces an instance timeline's entries only from its own time on")
    func kindTimelineAfterInstanceTimeline() throws {
        let harness = try EngineHarness(
            Self.twoWidgets + [
                #"{"type":"widget.timeline","time":"2026-05-04T08:00:00Z","app":"a","kind":"K","instance":"w1","entries":[{"date":"2026-05-04T08:00:00Z","relevance":{"score":2}}]}"#,
                #"{"type":"widget.timeline","time":"2026-05-04T09:00:00Z","app":"a","kind":"K","entries":[{"date":"2026-05-04T20:00:00Z","relevance":{"score":4}}]}"#,
                #"{"type":"widget.timeline","time":"2026-05-04T10:00:00Z","app":"b","kind":"L","entries":[{"date":"2026-05-04T10:00:00Z","relevance":{"score":1}},{"date":"2026-05-04T20:00:00Z","relevance":{"score":3}}]}"#,
            ])
        let stack = try #require(try harness.stack("s1", at: Self.at("10:30")))
        // w1's 08:00 entry (score 2, the minimum of K's scores) still governs: both rank 0, and a tie keeps the top.
        #expect(stack.widgets.first { $0.widget.instance == "w1" }?.relevance?.score == 2)
        #expect(stack.top?.widget.instance == "w1")
        #expect(try harness.decisions(through: Self.at("10:30")).filter { $0.action == .rotate }.isEmpty)
    }

    @Test("R4, R7: an instance timeline with null relevance keeps the kind timeline's open window")
    func instanceTimelineAfterKindTimeline() throws {
        let harness = try EngineHarness([
            Self.twoWidgets[0],
            #"{"type":"widget.timeline","time":"2026-05-04T15:18:00Z","app":"a","kind":"K","entries":[{"date":"2026-05-04T18:18:00Z","relevance":{"score":10,"duration":3600}}]}"#,
            #"{"type":"widget.timeline","time":"2026-05-04T18:22:00Z","app":"a","kind":"K","instance":"w1","entries":[{"date":"2026-05-04T18:22:00Z","relevance":null}]}"#,
        ])
        let open = try #require(try harness.stack("s1", at: Self.at("18:30"))).widgets.first {
            $0.widget.instance == "w1"
        }
        #expect(open?.relevance?.score == 10)
        #expect(open?.entry?.date.microseconds == (try SmartStackTime.micros(Self.at("18:22"))))
        let closed = try #require(try harness.stack("s1", at: Self.at("19:30"))).widgets.first {
            $0.widget.instance == "w1"
        }
        #expect(closed?.relevance == nil)
    }

    @Test("G2, S2, S3, G3: the same relevant-shortcut set sent again keeps its shown suggestion")
    func sameShortcutSetAgain() throws {
        let set = { (clock: String) in
            #"{"type":"shortcuts.relevantSet","time":"2026-05-04T\#(clock):00Z","app":"t","shortcuts":[{"widgetKind":"T","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-05-04T07:00:00Z","end":"2026-05-04T12:00:00Z"}}]}]}"#
        }
        let harness = try EngineHarness([Self.twoWidgets[0], set("06:00"), set("08:00"), set("09:00")])
        let decisions = try harness.decisions(through: Self.at("09:30"))
        #expect(decisions.filter { $0.action == .unsuggest }.isEmpty)
        #expect(decisions.filter { $0.action == .suggest }.count == 1)
        let stack = try #require(try harness.stack("s1", at: Self.at("09:30")))
        #expect(stack.widgets.contains { $0.suggested && $0.widget.kind == "T" })
    }

    @Test("R2, G1: ranking compares exact normalised scores; 0.50004 is strictly better than 0.5")
    func rankingDoesNotRound() throws {
        let harness = try EngineHarness([
            #"{"type":"system.developerMode","time":"2026-05-04T04:00:00Z","enabled":true}"#,
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"s1","platform":"iOS","family":"systemSmall"}"#,
            #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s1","widget":{"instance":"wa","app":"com.a","kind":"KA","family":"systemSmall","configuration":null}}"#,
            #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s1","widget":{"instance":"wb","app":"com.b","kind":"KB","family":"systemSmall","configuration":null}}"#,
            #"{"type":"widget.timeline","time":"2026-05-04T06:00:00Z","app":"com.a","kind":"KA","entries":[{"date":"2026-05-04T06:00:00Z","relevance":{"score":1,"duration":60}},{"date":"2026-05-04T06:05:00Z","relevance":{"score":3,"duration":60}},{"date":"2026-05-04T07:00:00Z","relevance":{"score":2}}]}"#,
            #"{"type":"widget.timeline","time":"2026-05-04T06:00:00Z","app":"com.b","kind":"KB","entries":[{"date":"2026-05-04T06:00:00Z","relevance":{"score":1,"duration":60}},{"date":"2026-05-04T06:05:00Z","relevance":{"score":25001,"duration":60}},{"date":"2026-05-04T08:00:00Z","relevance":{"score":12502}}]}"#,
        ])
        #expect(try harness.stack("s1", at: Self.at("07:30"))?.top?.widget.instance == "wa")
        #expect(try harness.stack("s1", at: Self.at("08:30"))?.top?.widget.instance == "wb")
    }

    @Test("P1: two watch cards placed at one instant are ordered by rank, scheduled above informational")
    func simultaneousWatchCards() throws {
        let harness = try EngineHarness([
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"w1","platform":"watchOS","family":"accessoryRectangular"}"#,
            #"{"type":"intents.relevantSet","time":"2026-05-04T05:10:00Z","app":"p","intents":[{"widgetKind":"P","intent":{"intent":"PI","parameters":{}},"context":{"date":{"from":"2026-05-04T09:00:00Z","to":"2026-05-04T10:00:00Z","kind":"scheduled"}}}]}"#,
            #"{"type":"intents.relevantSet","time":"2026-05-04T05:20:00Z","app":"q","intents":[{"widgetKind":"Q","intent":{"intent":"QI","parameters":{}},"context":{"date":{"from":"2026-05-04T09:00:00Z","to":"2026-05-04T10:00:00Z","kind":"informational"}}}]}"#,
        ])
        let stack = try #require(try harness.stack("w1", at: Self.at("09:30")))
        #expect(stack.top?.widget.kind == "P")
        #expect(stack.widgets.map(\.widget.kind).prefix(2) == ["P", "Q"])
    }
}

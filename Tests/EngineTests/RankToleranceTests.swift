import Forensics
import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// Ranks compared with the contract's tolerance (docs/queries.md, "Ties and changes of top"):
/// normalised scores that differ only in their last bits are a tie, so magnitudes never
/// decide (R2), and no reason says one ranks above the other.
@Suite("Rank tolerance")
struct RankToleranceTests {
    /// `wa` of `com.a` on top, `wb` of `com.b` below it; each app delivers three scores, the
    /// last active at 08:00. `com.a`'s normalise to exactly 0.5, `com.b`'s to
    /// 0.5000000000000001 (or, scaled, to another last bit).
    static func lines(bScale: Double) -> [String] {
        let timeline = { (app: String, kind: String, scores: [Double]) in
            let entries = zip(["06:00", "07:00", "08:00"], scores).map { date, score in
                #"{"date":"2026-03-02T\#(date):00Z","relevance":{"score":\#(score)}}"#
            }
            return
                #"{"type":"widget.timeline","time":"2026-03-02T05:30:00Z","app":"\#(app)","kind":"\#(kind)","entries":[\#(entries.joined(separator: ","))]}"#
        }
        return [
            Line.add("wa", app: "com.a", kind: "A", at: "05:00"),
            Line.add("wb", app: "com.b", kind: "B", at: "05:00"),
            timeline("com.a", "A", [1, 3, 2]),
            timeline("com.b", "B", [0.1 * bScale, 0.3 * bScale, 0.2 * bScale]),
        ]
    }

    @Test(
        "R2: ranks 0.5 and 0.5000000000000001 are a tie, which keeps the top, at any magnitude", arguments: [1.0, 10])
    func tieKeepsTheTop(bScale: Double) throws {
        let harness = try EngineHarness(Self.lines(bScale: bScale))
        let stack = try #require(try harness.stack("home", at: Line.t("08:30")))
        let ranks = stack.widgets.compactMap(\.relevance?.normalized)
        #expect(ranks.count == 2)
        #expect(stack.top?.widget.instance == "wa")
        let eight = try Timestamp(rfc3339: Line.t("08:00")).microseconds
        let rotations = try harness.decisions(through: Line.t("08:30")).filter {
            $0.action == .rotate && $0.time.microseconds >= eight
        }
        #expect(rotations.isEmpty)
        // Why wb is not on top: a tie, never OUTRANKED.
        let verdict = try #require(try harness.engine(at: Line.t("08:30")).verdict(stack: "home", widget: "wb"))
        #expect(!verdict.reasons.contains { $0.code == "OUTRANKED" })
        let kept = try #require(verdict.reasons.first { $0.code == "KEPT" })
        #expect(kept.detail.contains("a tie keeps the top"))
    }

    @Test("R2: the tolerance is no wider than the contract's: ranks 1e-6 apart rotate")
    func clearDifferenceRotates() throws {
        var lines = Self.lines(bScale: 1)
        lines[3] = lines[3].replacingOccurrences(of: #""score":0.2}"#, with: #""score":0.2000002}"#)
        let harness = try EngineHarness(lines)
        let stack = try #require(try harness.stack("home", at: Line.t("08:30")))
        #expect(stack.top?.widget.instance == "wb")
        let rotation = try #require(try harness.decisions(through: Line.t("08:30")).last { $0.action == .rotate })
        #expect(rotation.reasons.contains { $0.code == "RANKED_FIRST" })
    }

    @Test("Suggestions placed at one instant with equal ranks: by app then kind, and no RANKED_FIRST")
    func simultaneousTiesOrderByApp() throws {
        let set = { (app: String, kind: String, at: String) in
            #"{"type":"intents.relevantSet","time":"2026-05-04T\#(at):00Z","app":"\#(app)","intents":[{"widgetKind":"\#(kind)","intent":{"intent":"I","parameters":{}},"context":{"date":{"from":"2026-05-04T09:00:00Z","to":"2026-05-04T10:00:00Z","kind":"scheduled"}}}]}"#
        }
        let lines = [
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"w1","platform":"watchOS","family":"accessoryRectangular"}"#,
            set("q", "Q", "05:10"),
            set("p", "P", "05:20"),
        ]
        let placed = try EngineHarness(lines).decisions(through: "2026-05-04T09:30:00Z").filter {
            $0.action == .suggest
        }
        #expect(placed.map(\.widget.app) == ["p", "q"])
        #expect(placed.allSatisfy { !$0.reasons.contains { $0.code == "RANKED_FIRST" } })
        #expect(placed.first?.top?.kind == "P")
    }
}

import Forensics
import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// Each reason's basis is what it says: documented only where Apple's rules alone decide,
/// the policy (with the parameters named) wherever two widgets are compared.
@Suite("Reason bases")
struct ReasonBasisTests {
    /// One row of the table "Each code and situation with its basis" in docs/queries.md.
    struct Row {
        var code: String
        var bases: String
        var rules: Set<String>
        var parameters: Set<String>
    }

    /// The table, read from docs/queries.md; an unreadable file or a missing table fails the test.
    static func table() throws -> [Row] {
        let text = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/queries.md", encoding: .utf8)
        let start = try #require(text.range(of: "### Each code and situation with its basis"))
        var rows = [Row]()
        for line in text[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5, cells[1].hasPrefix("`") else { continue }
            let ticked = { (s: String) in
                Set(
                    s.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                        .map { String($0.element) })
            }
            let ids = Set(
                cells[4].split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter {
                    $0.count == 2 && $0.first!.isUppercase && $0.last!.isNumber
                })
            rows.append(
                Row(
                    code: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), bases: cells[3], rules: ids,
                    parameters: ticked(cells[4])))
        }
        return rows
    }

    /// Whether the table has a row for `r`: its code, its basis, its rule and every parameter.
    static func documented(_ r: Reason, in table: [Row]) -> Bool {
        table.contains { row in
            guard row.code == r.code, row.bases.contains(r.basis.rawValue) else { return false }
            return r.basis == .documented
                ? row.rules.contains(r.rule) && r.parameters.isEmpty
                : !r.parameters.isEmpty && r.parameters.first == r.rule
                    && r.parameters.allSatisfy(row.parameters.contains)
        }
    }

    @Test("the codes the engine can emit are the codes docs/queries.md documents")
    func codesMatchTheDocs() throws {
        let table = try Self.table()
        #expect(!table.isEmpty)
        #expect(Set(table.map(\.code)) == Set(ReasonCode.allCases.map(\.rawValue)))
    }

    @Test(
        "every reason of every decision, candidate and verdict over the scenarios and a workload has a row in the table"
    )
    func everyReasonHasItsRow() throws {
        let table = try Self.table()
        var logs = [[String]]()
        for name in ["calendar-suggestion", "cards-day", "watch-workout"] {
            let text = try String(contentsOfFile: Fixtures.path("scenarios/\(name).ndjson"), encoding: .utf8)
            logs.append(text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        }
        var config = WorkloadGenerator.Configuration()
        config.devices = 1
        config.events = 3_000
        var generator = WorkloadGenerator(config)
        var workload = [String]()
        generator.generate { workload.append($0.canonicalJSON) }
        logs.append(workload)
        var seen = 0
        for lines in logs {
            let harness = try EngineHarness(lines)
            let device = harness.events.first?.event.envelope.device ?? "default"
            let times = harness.events.map(\.event.envelope.time.microseconds).sorted()
            guard let first = times.first, let last = times.last else { continue }
            var reasons = try harness.decisions(through: Timestamp(microseconds: last).rfc3339, device: device).flatMap(
                \.reasons)
            for k in 1...8 {
                let at = Timestamp(microseconds: first + (last - first) / 8 * Int64(k)).rfc3339
                let engine = try harness.engine(at: at, device: device)
                let snapshot = engine.snapshot(at: try Timestamp(rfc3339: at))
                for stack in snapshot.stacks {
                    for c in engine.candidates(stack: stack.stack) { reasons += c.reasons }
                    for w in stack.widgets {
                        reasons += engine.verdict(stack: stack.stack, widget: w.widget.kind)?.reasons ?? []
                    }
                }
            }
            for r in reasons {
                #expect(
                    Self.documented(r, in: table),
                    "no row in docs/queries.md for \(r.code) \(r.basis) \(r.rule) \(r.parameters)")
            }
            seen += reasons.count
        }
        #expect(seen > 100)
    }

    static let twoProviders = [
        Line.stack(),
        Line.add("a", app: "com.a", kind: "A"),
        Line.add("b", app: "com.b", kind: "B", at: "06:02"),
        Line.timeline("com.a", "A", at: "07:00", [("07:00", 1, 60), ("09:00", 10, 3600)]),
        Line.timeline("com.b", "B", at: "07:00", [("07:00", 5000, 60), ("09:00", 1000, 3600)]),
    ]

    @Test("OUTRANKED between two providers' scores rests on the policy that normalises them")
    func outrankedAcrossProviders() throws {
        let engine = try EngineHarness(Self.twoProviders).engine(at: Line.t("09:10"))
        let r = try #require(engine.verdict(stack: "home", widget: "B")?.reasons.first { $0.code == "OUTRANKED" })
        #expect(
            r.basis == .policy && r.rule == "normalizationWindowDays" && r.parameters == ["normalizationWindowDays"])
    }

    @Test("OUTRANKED between two instances of one provider is rule R2")
    func outrankedWithinOneProvider() throws {
        let lines = [
            Line.stack(),
            Line.add("a1", app: "com.a", kind: "A"),
            Line.add("a2", app: "com.a", kind: "A", at: "06:02"),
            #"{"type":"widget.timeline","time":"2026-03-02T07:00:00Z","app":"com.a","kind":"A","instance":"a1","entries":[{"date":"2026-03-02T07:00:00Z","relevance":{"score":1,"duration":60}},{"date":"2026-03-02T09:00:00Z","relevance":{"score":10,"duration":3600}}]}"#,
            #"{"type":"widget.timeline","time":"2026-03-02T07:00:00Z","app":"com.a","kind":"A","instance":"a2","entries":[{"date":"2026-03-02T09:00:00Z","relevance":{"score":4,"duration":3600}}]}"#,
        ]
        let engine = try EngineHarness(lines).engine(at: Line.t("09:10"))
        let r = try #require(engine.verdict(stack: "home", widget: "a2")?.reasons.first { $0.code == "OUTRANKED" })
        #expect(r.basis == .documented && r.rule == "R2" && r.parameters.isEmpty)
    }

    @Test("a score against a relevant shortcut's rank names both parameters")
    func outrankedByAShortcut() throws {
        let lines = [
            Line.stack(),
            Line.add("a", app: "com.a", kind: "A"),
            Line.add("t", app: "com.t", kind: "T", at: "06:02"),
            #"{"type":"shortcuts.relevantSet","time":"2026-03-02T06:30:00Z","app":"com.t","shortcuts":[{"widgetKind":"T","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-03-02T07:00:00Z","end":"2026-03-02T12:00:00Z"}}]}]}"#,
            Line.timeline("com.a", "A", at: "07:00", [("07:00", 1, 60), ("09:00", 5, 3600), ("10:00", 10, 60)]),
        ]
        let engine = try EngineHarness(lines).engine(at: Line.t("09:10"))
        let r = try #require(engine.verdict(stack: "home", widget: "A")?.reasons.first { $0.code == "OUTRANKED" })
        #expect(r.basis == .policy)
        #expect(
            Set(r.parameters) == ["normalizationWindowDays", "relevantShortcutRank"] && r.parameters.first == r.rule)
    }

    @Test("RANKED_FIRST in a rotation that chose one eligible widget over another; none without a rival")
    func rankedFirst() throws {
        let lines = Self.twoProviders + [Line.timeline("com.b", "B", at: "09:30", [("09:30", 6000, 600)])]
        let decisions = try EngineHarness(lines).decisions(through: Line.t("09:45"))
        let over = try #require(decisions.last { $0.action == .rotate && $0.widget.instance == "b" })
        let r = try #require(over.reasons.first { $0.code == "RANKED_FIRST" })
        #expect(r.basis == .policy && r.parameters == ["normalizationWindowDays"] && r.detail.contains("above A"))
        let alone = try EngineHarness([
            Line.stack(), Line.add("a", app: "com.a", kind: "A"), Line.add("b", app: "com.b", kind: "B", at: "06:02"),
            Line.timeline("com.b", "B", at: "07:00", [("07:00", 3, 600)]),
        ]).decisions(through: Line.t("07:05"))
        let rotation = try #require(alone.first { $0.action == .rotate })
        #expect(!rotation.reasons.contains { $0.code == "RANKED_FIRST" })
    }

    @Test("RANKED_FIRST on a watch card placed above another names the context ranks")
    func rankedFirstOnCards() throws {
        let lines = [
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"w1","platform":"watchOS","family":"accessoryRectangular"}"#,
            #"{"type":"intents.relevantSet","time":"2026-05-04T05:10:00Z","app":"p","intents":[{"widgetKind":"P","intent":{"intent":"PI","parameters":{}},"context":{"date":{"from":"2026-05-04T09:00:00Z","to":"2026-05-04T10:00:00Z","kind":"scheduled"}}}]}"#,
            #"{"type":"intents.relevantSet","time":"2026-05-04T05:20:00Z","app":"q","intents":[{"widgetKind":"Q","intent":{"intent":"QI","parameters":{}},"context":{"date":{"from":"2026-05-04T09:00:00Z","to":"2026-05-04T10:00:00Z","kind":"informational"}}}]}"#,
        ]
        let decisions = try EngineHarness(lines).decisions(through: "2026-05-04T09:30:00Z")
        let p = try #require(decisions.first { $0.action == .suggest && $0.widget.kind == "P" })
        let r = try #require(p.reasons.first { $0.code == "RANKED_FIRST" })
        #expect(r.basis == .policy && Set(r.parameters) == ["contextRank", "dateKindRankAdjustment"])
    }
}

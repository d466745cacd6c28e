import Foundation
import SmartStack
import StackLedgerTesting
import Testing

extension Line {
    /// A `stack.layoutObserved` of one stack; `members`: (instance, app, kind, extension).
    static func layout(
        _ stack: String = "home", at time: String, members: [(String, String, String, String?)],
        smartRotate: Bool? = true, suggestions: Bool? = true, method: String = "recorded", complete: Bool = true,
        selected: String? = nil
    ) -> String {
        let list = members.map { m in
            let ext = m.3.map { #","extension":"\#($0)""# } ?? ""
            return
                #"{"instance":"\#(m.0)","app":"\#(m.1)","kind":"\#(m.2)","family":"systemSmall","configuration":null\#(ext)}"#
        }.joined(separator: ",")
        var switches = ""
        if let smartRotate { switches += #","smartRotate":\#(smartRotate)"# }
        if let suggestions { switches += #","widgetSuggestions":\#(suggestions)"# }
        if let selected { switches += #","selected":"\#(selected)""# }
        return
            #"{"type":"stack.layoutObserved","time":"\#(t(time))","layout":"sha256:test","stacks":[{"stack":"\#(stack)","platform":"iOS","family":"systemSmall","members":[\#(list)]\#(switches)}],"method":"\#(method)","complete":\#(complete)}"#
    }
}

/// `docs/events.md`, "Observed layouts": what a `stack.layoutObserved` does before and
/// after its time.
@Suite("Observed layouts")
struct ObservedLayoutTests {
    static let twoWidgets: [(String, String, String, String?)] = [
        ("a", "com.a", "A", "com.a.widget"), ("b", "com.b", "B", nil),
    ]

    func codes(_ s: StackSnapshot?) -> [String] { s?.assumptions.map(\.code) ?? [] }

    @Test("before its time a layout no event defines is assumed, rotates as the model says, and says LAYOUT_ASSUMED")
    func assumedBefore() throws {
        let h = try EngineHarness([
            Line.timeline("com.b", "B", at: "08:00", [("09:00", 40, 3600)]),
            Line.layout(at: "12:00", members: Self.twoWidgets),
        ])
        let before = try #require(try h.stack("home", at: Line.t("09:30")))
        #expect(before.top?.widget.instance == "b")
        #expect(codes(before) == ["LAYOUT_ASSUMED"])
        #expect(before.assumptions.first?.events == [2])
        let rotation = try #require(try h.decisions(through: Line.t("09:30")).first)
        #expect(rotation.widget.instance == "b" && rotation.assumptions.map(\.code) == ["LAYOUT_ASSUMED"])
        #expect(codes(try h.stack("home", at: Line.t("12:30"))).isEmpty)
    }

    @Test("an assumption names the layout's time with its date: the layout may be of another day than the answer")
    func assumedLayoutTimeHasItsDate() throws {
        let h = try EngineHarness([
            Line.timeline("com.b", "B", at: "2026-02-20T08:00:00Z", [("2026-02-20T09:00:00Z", 40, 3600)]),
            Line.layout(at: "12:00", members: Self.twoWidgets),
        ])
        let before = try #require(try h.stack("home", at: Line.t("2026-02-20T09:30:00Z")))
        #expect(
            before.assumptions.first?.detail
                == "no event before 2026-03-02 12:00 defines home; its layout is taken from the one the device recorded then"
        )
    }

    @Test("known at a time before the layout was recorded, the stack does not exist")
    func knownAtBefore() throws {
        let h = try EngineHarness([Line.layout(at: "12:00", members: Self.twoWidgets)])
        #expect(try h.state(at: Line.t("10:00"), knownAt: Line.t("11:00")).stacks.isEmpty)
        #expect(try h.state(at: Line.t("10:00"), without: [1]).stacks.isEmpty)
        #expect(try h.state(at: Line.t("10:00")).stacks.map(\.stack) == ["home"])
    }

    @Test(
        "an explicit stack.created before the layout's time is never overridden backwards; the layout's later contradiction is LAYOUT_CONFLICT"
    )
    func explicitThenConflict() throws {
        let h = try EngineHarness([
            Line.stack(at: "06:00"),
            Line.add("x", app: "com.x", kind: "X", at: "06:01"),
            Line.layout(at: "12:00", members: Self.twoWidgets),
        ])
        let before = try #require(try h.stack("home", at: Line.t("10:00")))
        #expect(before.widgets.map(\.widget.instance) == ["x"])
        #expect(codes(before).isEmpty)
        let after = try #require(try h.stack("home", at: Line.t("12:30")))
        #expect(after.widgets.map(\.widget.instance) == ["a", "b"])
        #expect(codes(after) == ["LAYOUT_CONFLICT"])
        #expect(after.assumptions.first?.events == [1, 3])
    }

    @Test("members are matched, not duplicated: a recorded widget keeps the instance id events gave it")
    func matchedMembers() throws {
        let h = try EngineHarness([
            Line.stack(at: "06:00"),
            Line.add("my-a", app: "com.a", kind: "A", at: "06:01"),
            Line.add("my-b", app: "com.b", kind: "B", at: "06:02"),
            Line.layout(at: "12:00", members: [("dev-b", "com.b", "B", nil), ("dev-a", "com.a", "A", "com.a.widget")]),
        ])
        let after = try #require(try h.stack("home", at: Line.t("12:30")))
        #expect(after.widgets.map(\.widget.instance) == ["my-b", "my-a"])
        #expect(codes(after) == ["LAYOUT_CONFLICT"])
    }

    @Test("switches the record does not hold keep their value and say SETTINGS_ASSUMED; recorded ones are set")
    func switches() throws {
        let h = try EngineHarness([
            Line.stack(smartRotate: true, suggestions: false, at: "06:00"),
            Line.layout(at: "12:00", members: Self.twoWidgets, smartRotate: false, suggestions: nil),
        ])
        let after = try #require(try h.stack("home", at: Line.t("12:30")))
        #expect(!after.smartRotate && !after.widgetSuggestions)
        #expect(codes(after).contains("SETTINGS_ASSUMED"))
    }

    @Test("a complete layout removes the stacks it does not list; stack.removed removes one")
    func removal() throws {
        let h = try EngineHarness([
            Line.stack("other", at: "06:00"),
            Line.layout(at: "12:00", members: Self.twoWidgets, complete: true),
            Line.event("stack.removed", at: "13:00", #""stack":"home""#),
        ])
        #expect(try h.state(at: Line.t("11:00")).stacks.map(\.stack).sorted() == ["home", "other"])
        #expect(try h.state(at: Line.t("12:30")).stacks.map(\.stack) == ["home"])
        #expect(try h.state(at: Line.t("13:30")).stacks.isEmpty)
    }

    @Test("an inferred layout says LAYOUT_INFERRED before and after its time")
    func inferred() throws {
        let h = try EngineHarness([Line.layout(at: "12:00", members: Self.twoWidgets, method: "inferred")])
        #expect(codes(try h.stack("home", at: Line.t("10:00"))) == ["LAYOUT_ASSUMED", "LAYOUT_INFERRED"])
        #expect(codes(try h.stack("home", at: Line.t("12:30"))) == ["LAYOUT_INFERRED"])
    }

    @Test("the assumption codes are the ones docs/queries.md lists under Assumptions")
    func assumptionCodesMatchTheDocs() throws {
        let text = try String(contentsOfFile: Fixtures.repositoryRoot + "/docs/queries.md", encoding: .utf8)
        let start = try #require(text.range(of: "## Assumptions"))
        let end = try #require(text[start.upperBound...].range(of: "\n## "))
        let section = text[start.upperBound..<end.lowerBound]
        let documented = Set(
            section.split(separator: "`").filter { $0.allSatisfy { $0.isUppercase || $0 == "_" } && $0.count > 3 }
                .map(String.init))
        #expect(documented == Set(AssumptionCode.allCases.map(\.rawValue)))
    }

    @Test("a layout listing a stack twice, or an instance twice in a stack, is refused naming the field")
    func refused() throws {
        var decoder = EventDecoder()
        let twice = Line.layout(at: "12:00", members: [("a", "com.a", "A", nil), ("a", "com.b", "B", nil)])
        #expect(throws: (any Error).self) { try decoder.decode(twice) }
        let line = Line.layout(at: "12:00", members: Self.twoWidgets)
        let doubled = line.replacingOccurrences(
            of: #""stacks":[{"#,
            with: #""stacks":[{"stack":"home","platform":"iOS","family":"systemSmall","members":[]},{"#)
        #expect(throws: (any Error).self) { try decoder.decode(doubled) }
    }
}

/// `docs/events.md`, "Matching the device's names to widgets".
@Suite("Matching the device's names to widgets")
struct WidgetMatchingTests {
    static let candidates = [
        MatchCandidate(
            instance: "w1", app: "com.apple.weather", extensionBundle: "com.apple.weather.widget",
            kind: "com.apple.weather"),
        MatchCandidate(
            instance: "w2", app: "com.apple.mobiletimer", extensionBundle: "com.apple.mobiletimer.WorldClockWidget",
            kind: "com.apple.mobiletimer.datetime"),
        MatchCandidate(instance: "w3", app: "com.example.a", extensionBundle: nil, kind: "Widget"),
        MatchCandidate(instance: "w4", app: "com.example.b", extensionBundle: nil, kind: "Widget"),
    ]

    func match(_ instance: String?, _ bundle: String?, _ kind: String?) -> WidgetMatch {
        RecordedWidgetName(instance: instance, bundle: bundle, kind: kind).match(in: Self.candidates)
    }

    @Test("by instance first, then extension or app with the kind, then a cut kind of at least 4 characters")
    func order() {
        #expect(match("w2", nil, nil) == .matched(1, by: .instance))
        #expect(match(nil, "com.apple.weather.widget", "eather") == .matched(0, by: .kindSuffix))
        #expect(match(nil, "com.apple.mobiletimer.WorldClockWidget", "tetime") == .matched(1, by: .kindSuffix))
        #expect(match(nil, "com.example.a", "Widget") == .matched(2, by: .bundleAndKind))
        #expect(match(nil, "com.apple.weather", "com.apple.weather") == .matched(0, by: .bundleAndKind))
    }

    @Test("no match or more than one is never guessed")
    func neverGuessed() {
        #expect(match(nil, nil, "Widget") == .ambiguous)
        #expect(match(nil, "com.unknown", "Widget") == .none)
        #expect(match(nil, nil, "her") == .none)
        #expect(match("zz", nil, nil) == .none)
    }
}

/// `widget.relevanceObserved`: the device's record of a widget's relevance stands in where
/// the app's own timelines do not speak (docs/events.md).
@Suite("The device's records of relevance")
struct RelevanceRecordTests {
    static func record(_ kind: String, app: String? = "com.b", ext: String? = nil, at: String, score: Double?) -> String
    {
        let a = app.map { #""app":"\#($0)","# } ?? ""
        let e = ext.map { #""extension":"\#($0)","# } ?? ""
        let r = score.map { #"{"score":\#($0),"duration":3600}"# } ?? "null"
        return
            #"{"type":"widget.relevanceObserved","time":"\#(Line.t(at))",\#(a)\#(e)"kind":"\#(kind)","date":"\#(Line.t(at))","relevance":\#(r)}"#
    }

    @Test("a record rotates the widget as a timeline entry would, and the answer says RELEVANCE_FROM_DEVICE_RECORD")
    func standsIn() throws {
        let h = try EngineHarness(RelevanceRuleTests.base + [Self.record("B", at: "09:00", score: 40)])
        let stack = try #require(try h.stack("home", at: Line.t("09:30")))
        #expect(stack.top?.widget.instance == "b")
        #expect(stack.top?.relevance?.fromDeviceRecord == true)
        #expect(stack.assumptions.map(\.code) == ["RELEVANCE_FROM_DEVICE_RECORD"])
        #expect(stack.assumptions.first?.instance == "b" && stack.assumptions.first?.events == [4])
        let rotation = try #require(try h.decisions(through: Line.t("09:30")).first)
        #expect(rotation.assumptions.map(\.code) == ["RELEVANCE_FROM_DEVICE_RECORD"])
    }

    @Test("inside the span the app's own timelines cover, the device's record is ignored")
    func appTimelinesWin() throws {
        let h = try EngineHarness(
            RelevanceRuleTests.base + [
                Line.timeline("com.b", "B", at: "07:00", [("08:00", 0, 0), ("12:00", 0, 0)]),
                Self.record("B", at: "09:00", score: 40),
            ])
        let stack = try #require(try h.stack("home", at: Line.t("09:30")))
        #expect(stack.top?.widget.instance == "a")
        #expect(stack.assumptions.isEmpty)
    }

    @Test("a record naming only the extension applies to the members with that extension")
    func byExtension() throws {
        let lines = [
            Line.layout(at: "06:00", members: [("a", "com.a", "A", nil), ("b", "com.b", "B", "com.b.widget")]),
            Self.record("B", app: nil, ext: "com.b.widget", at: "09:00", score: 40),
        ]
        let h = try EngineHarness(lines)
        #expect(try h.stack("home", at: Line.t("09:30"))?.top?.widget.instance == "b")
        let unknown = try EngineHarness([
            lines[0], Self.record("B", app: nil, ext: "com.other", at: "09:00", score: 40),
        ])
        #expect(try unknown.stack("home", at: Line.t("09:30"))?.top?.widget.instance == "a")
    }
}

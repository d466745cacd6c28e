import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// The documented relevance rules (R1-R8) and Smart Rotate's rules (G1, G3), one test each.
@Suite("Relevance and Smart Rotate rules")
struct RelevanceRuleTests {
    /// A stack with A (on top, no relevance) and B.
    static let base = [
        Line.stack(),
        Line.add("a", app: "com.a", kind: "A"),
        Line.add("b", app: "com.b", kind: "B", at: "06:02"),
    ]

    func top(_ lines: [String], at time: String, policy: Policy = Policy()) throws -> String? {
        try EngineHarness(RelevanceRuleTests.base + lines, policy: policy).stack("home", at: Line.t(time))?.top?.widget
            .instance
    }

    @Test("R1: a score of 0 or less never rotates")
    func r1() throws {
        let lines = [Line.timeline("com.b", "B", at: "08:00", [("09:00", -5, 3600), ("10:00", 0, 3600)])]
        #expect(try top(lines, at: "09:30") == "a")
        #expect(try top(lines, at: "10:30") == "a")
        #expect(try EngineHarness(RelevanceRuleTests.base + lines).decisions(through: Line.t("23:00")).isEmpty)
    }

    @Test(
        "T1: a widget displays the latest entry dated at or before the instant, with or without relevance; a later timeline replaces the rest"
    )
    func t1() throws {
        let lines = [
            Line.timeline("com.b", "B", at: "08:00", [("08:00", nil, 0), ("09:00", 5, 1800), ("10:00", nil, 0)]),
            Line.timeline("com.b", "B", at: "09:40", [("09:45", nil, 0), ("11:00", nil, 0)]),
        ]
        let harness = try EngineHarness(RelevanceRuleTests.base + lines)
        func shown(_ time: String) throws -> (String?, UInt64?) {
            let e = try harness.stack("home", at: Line.t(time))?.widgets.first { $0.widget.instance == "b" }?.entry
            return (e.map { Timestamp(microseconds: $0.date.microseconds).rfc3339 }, e?.event)
        }
        #expect(try shown("07:59") == (nil, nil))
        #expect(try shown("08:30") == (Line.t("08:00"), 4))
        #expect(try shown("09:30") == (Line.t("09:00"), 4))
        // The 09:40 timeline replaced the 10:00 entry.
        #expect(try shown("09:50") == (Line.t("09:45"), 5))
        #expect(try shown("10:30") == (Line.t("09:45"), 5))
        #expect(try shown("11:00") == (Line.t("11:00"), 5))
        #expect(
            try harness.stack("home", at: Line.t("11:00"))?.widgets.first { $0.widget.instance == "a" }?.entry == nil)
    }

    @Test("R2: scores compare only with the same provider's scores, never by magnitude")
    func r2() throws {
        // A scores on 1-10, B on 1000-5000. At 09:00 A is at its own maximum, B at its minimum.
        let lines = [
            Line.timeline("com.a", "A", at: "07:00", [("07:00", 1, 60), ("09:00", 10, 3600)]),
            Line.timeline("com.b", "B", at: "07:00", [("07:00", 5000, 60), ("09:00", 1000, 3600)]),
            Line.event("stack.scrolled", at: "08:00", #""stack":"home","instance":"b""#),
        ]
        let harness = try EngineHarness(
            RelevanceRuleTests.base + lines,
            policy: Policy(
                parameters: {
                    var p = PolicyParameters()
                    p.scrollHoldMinutes = 0
                    return p
                }()))
        let stack = try #require(try harness.stack("home", at: Line.t("09:10")))
        #expect(stack.top?.widget.instance == "a")
        #expect(stack.widgets.first { $0.widget.instance == "a" }?.relevance?.normalized == 1)
        #expect(stack.widgets.first { $0.widget.instance == "b" }?.relevance?.normalized == 0)
    }

    @Test("R3: relevance carries across timelines for the duration given")
    func r3() throws {
        let lines = [
            Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 3600)]),
            Line.timeline("com.b", "B", at: "09:10", [("09:20", nil, 0)]),
        ]
        let stack = try #require(try EngineHarness(RelevanceRuleTests.base + lines).stack("home", at: Line.t("09:45")))
        let b = try #require(stack.widgets.first { $0.widget.instance == "b" })
        #expect(b.relevance?.score == 5)
        #expect(b.relevance?.event == 4)
        #expect(stack.top?.widget.instance == "b")
    }

    @Test("R4: a null relevance keeps the previous relevance")
    func r4() throws {
        let lines = [Line.timeline("com.b", "B", at: "08:00", [("09:00", 7, 0), ("09:15", nil, 0), ("09:30", nil, 0)])]
        let stack = try #require(try EngineHarness(RelevanceRuleTests.base + lines).stack("home", at: Line.t("09:40")))
        let r = try #require(stack.widgets.first { $0.widget.instance == "b" }?.relevance)
        #expect(r.score == 7)
        #expect(r.since.microseconds == (try testMicros("09:00")))
    }

    @Test("R5: a score of 0 removes a previous relevance")
    func r5() throws {
        let lines = [Line.timeline("com.b", "B", at: "08:00", [("09:00", 7, 0), ("09:30", 0, 0)])]
        let stack = try #require(try EngineHarness(RelevanceRuleTests.base + lines).stack("home", at: Line.t("09:45")))
        #expect(stack.widgets.first { $0.widget.instance == "b" }?.relevance == nil)
    }

    @Test("R6: duration 0 lasts until the next entry that carries relevance")
    func r6() throws {
        let lines = [Line.timeline("com.b", "B", at: "08:00", [("09:00", 7, 0), ("12:00", nil, 0), ("15:00", 3, 0)])]
        let h = try EngineHarness(RelevanceRuleTests.base + lines)
        let at14 = try #require(
            try h.stack("home", at: Line.t("14:59"))?.widgets.first { $0.widget.instance == "b" }?.relevance)
        #expect(at14.score == 7)
        #expect(at14.until?.microseconds == (try testMicros("15:00")))
        let at15 = try #require(
            try h.stack("home", at: Line.t("15:00"))?.widgets.first { $0.widget.instance == "b" }?.relevance)
        #expect(at15.score == 3)
        #expect(try h.decisions(through: Line.t("23:00")).first?.reasons.first?.rule == "R6")
    }

    @Test("R7: duration > 0 makes the window [date, date + duration)")
    func r7() throws {
        let lines = [Line.timeline("com.b", "B", at: "08:00", [("09:00", 7, 1800)])]
        let h = try EngineHarness(RelevanceRuleTests.base + lines)
        #expect(try h.stack("home", at: Line.t("08:59"))?.widgets.first { $0.widget.instance == "b" }?.relevance == nil)
        #expect(
            try h.stack("home", at: "2026-03-02T09:29:59Z")?.widgets.first { $0.widget.instance == "b" }?.relevance?
                .score == 7)
        #expect(try h.stack("home", at: Line.t("09:30"))?.widgets.first { $0.widget.instance == "b" }?.relevance == nil)
        let d = try #require(try h.decisions(through: Line.t("23:00")).first)
        let nine = try testMicros("09:00")
        #expect(d.action == .rotate && d.widget.instance == "b" && d.time.microseconds == nine)
        #expect(
            d.reasons.first?.code == "RELEVANCE_SCORE" && d.reasons.first?.rule == "R7"
                && d.reasons.first?.events == [4])
        // The top stays after the window closes: nothing displaced it.
        #expect(try top(lines, at: "10:00") == "b")
    }

    @Test("R8: a positive score is necessary, not sufficient (Smart Rotate off)")
    func r8() throws {
        let lines = [
            Line.event("stack.settingsChanged", at: "07:00", #""stack":"home","smartRotate":false"#),
            Line.timeline("com.b", "B", at: "08:00", [("09:00", 7, 1800)]),
        ]
        #expect(try top(lines, at: "09:10") == "a")
    }

    @Test("a later timeline replaces the earlier one's entries from its delivery on")
    func replacement() throws {
        let lines = [
            Line.timeline("com.b", "B", at: "08:00", [("10:00", 50, 1800)]),
            Line.timeline("com.b", "B", at: "09:00", [("09:05", 0, 0)]),
        ]
        #expect(try top(lines, at: "10:10") == "a")
    }

    @Test("G1: Smart Rotate acts only among widgets in the stack, where it is on")
    func g1() throws {
        // C is not in the stack: its relevance never puts it there.
        let lines = [Line.timeline("com.c", "C", at: "08:00", [("09:00", 9, 1800)])]
        let stack = try #require(try EngineHarness(RelevanceRuleTests.base + lines).stack("home", at: Line.t("09:10")))
        #expect(stack.top?.widget.instance == "a")
        #expect(!stack.widgets.contains { $0.widget.kind == "C" })
    }

    @Test(
        "G3: rotations per widget per local day are capped; Developer Mode lifts the cap; the count resets at local midnight"
    )
    func g3() throws {
        var params = PolicyParameters()
        params.rotationCapPerWidgetPerDay = 1
        let policy = Policy(parameters: params)
        let lines = [
            Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 1800), ("11:00", 5, 1800)]),
            Line.timeline("com.a", "A", at: "08:00", [("10:00", 5, 1800)]),
            Line.timeline("com.b", "B", at: "2026-03-03T08:00:00Z", [("2026-03-03T09:00:00Z", 5, 1800)]),
        ]
        #expect(try top(lines, at: "09:10", policy: policy) == "b")
        #expect(try top(lines, at: "10:10", policy: policy) == "a")
        #expect(try top(lines, at: "11:10", policy: policy) == "a") // B reached its cap of 1 today
        #expect(try top(lines, at: "2026-03-03T09:10:00Z", policy: policy) == "b") // a new day
        let dev = lines + [Line.event("system.developerMode", at: "07:00", #""enabled":true"#)]
        #expect(try top(dev, at: "11:10", policy: policy) == "b")
    }

    @Test("G3: the day is the device's local day, across a time zone's midnight")
    func localDay() throws {
        var params = PolicyParameters()
        params.rotationCapPerWidgetPerDay = 1
        let policy = Policy(parameters: params)
        // Tokyo is UTC+9: 14:00Z and 16:00Z fall on different local days (23:00 and 01:00).
        let lines = [
            Line.device(zone: "Asia/Tokyo"),
            Line.timeline("com.b", "B", at: "13:00", [("14:00", 5, 600), ("16:00", 5, 600)]),
            Line.timeline("com.a", "A", at: "13:00", [("15:00", 5, 600)]),
        ]
        #expect(try top(lines, at: "14:05", policy: policy) == "b")
        #expect(try top(lines, at: "15:05", policy: policy) == "a")
        #expect(try top(lines, at: "16:05", policy: policy) == "b")
        // In UTC the three instants share one day: B is capped at 16:00.
        let utc = Array(lines.dropFirst()) + [Line.device(zone: "UTC")]
        #expect(try top(utc, at: "16:05", policy: policy) == "a")
    }
}

/// Microseconds of a test time.
func testMicros(_ time: String) throws -> Int64 {
    try SmartStackTime.micros(Line.t(time))
}

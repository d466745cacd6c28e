import Forensics
import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// `why --widget`: the reason codes of queries.md, each produced by a small log.
@Suite("Why a widget is or is not on top")
struct VerdictTests {
    func verdict(_ lines: [String], at time: String, stack: String = "home", widget: String, policy: Policy = Policy())
        throws -> WidgetVerdict
    {
        let engine = try EngineHarness(lines, policy: policy).engine(at: Line.t(time))
        let v = engine.verdict(stack: stack, widget: widget)
        return try #require(v)
    }

    func codes(_ v: WidgetVerdict) -> [String] { v.reasons.map(\.code) }

    static let base = RelevanceRuleTests.base

    @Test("NO_ACTIVE_RELEVANCE names the entry whose window closed, and when")
    func noActiveRelevance() throws {
        let lines =
            VerdictTests.base + [
                Line.timeline("com.b", "B", at: "08:00", [("09:41", 52.6, 1800), ("12:15", 16, 1800)]),
                Line.event("stack.scrolled", at: "10:15", #""stack":"home","instance":"a""#),
            ]
        let v = try verdict(lines, at: "10:20", widget: "B")
        #expect(v.reasons.first?.code == "NO_ACTIVE_RELEVANCE")
        #expect(v.reasons.first?.detail.contains("the 09:41 entry's 1800 s window closed at 10:11") == true)
        #expect(v.reasons.first?.events == [4])
    }

    @Test("KEPT: the top whose relevance ended stays, and says why")
    func kept() throws {
        let lines = VerdictTests.base + [Line.timeline("com.b", "B", at: "08:00", [("09:41", 52.6, 1800)])]
        let v = try verdict(lines, at: "10:20", widget: "b")
        #expect(v.onTop)
        #expect(codes(v) == ["RELEVANCE_SCORE", "KEPT"])
    }

    @Test(
        "USER_SCROLLED: on top because the person scrolled to it, and it blocks a relevant widget until the hold ends")
    func userScrolled() throws {
        let lines =
            VerdictTests.base + [
                Line.timeline("com.b", "B", at: "08:00", [("09:00", 52.6, 3600)]),
                Line.event("stack.scrolled", at: "09:10", #""stack":"home","instance":"a""#),
            ]
        let onTop = try verdict(lines, at: "09:11", widget: "a")
        #expect(onTop.onTop && codes(onTop).first == "USER_SCROLLED")
        #expect(onTop.reasons.first?.events == [5])
        let blocked = try verdict(lines, at: "09:11", widget: "B")
        let r = try #require(blocked.reasons.first { $0.code == "USER_SCROLLED" })
        #expect(r.basis == .policy && r.rule == "scrollHoldMinutes" && r.events == [5])
    }

    @Test("T2: RELOAD_NOT_DUE gives the instant the reload policy allows the next timeline, until the app requests one")
    func reloadNotDue() throws {
        // B rotated up at 09:00; the person scrolled back to A at 09:40.
        let scroll = Line.event("stack.scrolled", at: "09:40", #""stack":"home","instance":"a""#)
        let after =
            VerdictTests.base + [
                Line.timeline(
                    "com.b", "B", at: "08:00", [("09:00", 5, 1800)], policy: #"{"after":"\#(Line.t("12:00"))"}"#),
                scroll,
            ]
        let v = try verdict(after, at: "10:00", widget: "B")
        #expect(codes(v) == ["NO_ACTIVE_RELEVANCE", "RELOAD_NOT_DUE"])
        let r = try #require(v.reasons.last)
        #expect(
            r.basis == .documented && r.rule == "T2" && r.events == [4] && r.detail.contains("no earlier than 12:00"))
        // A reload requested for the kind (or for every kind of the app) lifts it.
        for request in [#""kind":"B""#, #""all":true"#] {
            let requested = after + [Line.event("widget.reloadRequested", at: "10:30", app: "com.b", request)]
            #expect(codes(try verdict(requested, at: "10:45", widget: "B")) == ["NO_ACTIVE_RELEVANCE"])
        }
        // Once the date has passed, the next timeline is due: nothing more to say.
        #expect(codes(try verdict(after, at: "12:30", widget: "B")) == ["NO_ACTIVE_RELEVANCE"])
        let never =
            VerdictTests.base + [
                Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 1800)], policy: #""never""#), scroll,
            ]
        let n = try verdict(never, at: "15:00", widget: "B")
        #expect(
            codes(n) == ["NO_ACTIVE_RELEVANCE", "RELOAD_NOT_DUE"] && n.reasons.last!.detail.contains("policy is never"))
    }

    @Test(
        "T3: RELOAD_BUDGET_SPENT counts the reloads of the last 24 h against the budget, or quotes the device's own budget"
    )
    func reloadBudget() throws {
        var params = PolicyParameters()
        params.reloadBudgetPerDay = 3
        let reloads = ["07:00", "08:30", "09:10"].map {
            Line.event("widget.reloaded", at: $0, app: "com.b", #""kind":"B""#)
        }
        let lines =
            VerdictTests.base + [
                Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 1800)]),
                Line.event("stack.scrolled", at: "09:40", #""stack":"home","instance":"a""#),
            ] + reloads
        let spent = try verdict(lines, at: "10:00", widget: "B", policy: Policy(parameters: params))
        let r = try #require(spent.reasons.first { $0.code == "RELOAD_BUDGET_SPENT" })
        #expect(r.basis == .policy && r.rule == "reloadBudgetPerDay" && r.events == [6, 8])
        #expect(r.detail.contains("reloaded 3 times") && r.detail.contains("the daily budget is 3"))
        // Under the budget: nothing; the default budget is 55.
        #expect(!codes(try verdict(lines, at: "10:00", widget: "B")).contains("RELOAD_BUDGET_SPENT"))
        let recorded =
            lines + [Line.event("widget.reloaded", at: "09:20", app: "com.b", #""kind":"B","budgetRemaining":0"#)]
        let device = try #require(
            try verdict(recorded, at: "10:00", widget: "B").reasons.first { $0.code == "RELOAD_BUDGET_SPENT" })
        #expect(
            device.basis == .documented && device.rule == "T3" && device.events == [9]
                && device.detail.contains("no reload budget left"))
    }

    @Test("RATE_LIMITED gives the count and the cap")
    func rateLimited() throws {
        var params = PolicyParameters()
        params.rotationCapPerWidgetPerDay = 1
        let lines =
            VerdictTests.base + [
                Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 1800), ("11:00", 5, 1800)]),
                Line.timeline("com.a", "A", at: "08:00", [("10:00", 5, 1800)]),
            ]
        let v = try verdict(lines, at: "11:10", widget: "B", policy: Policy(parameters: params))
        let r = try #require(v.reasons.first { $0.code == "RATE_LIMITED" })
        #expect(r.rule == "rotationCapPerWidgetPerDay" && r.basis == .policy)
        #expect(r.detail.contains("1 times today") && r.detail.contains("the cap is 1"))
    }

    @Test("STACK_TOGGLE_OFF comes first on the rotation path")
    func toggleOff() throws {
        let lines =
            VerdictTests.base + [
                Line.event("stack.settingsChanged", at: "07:00", #""stack":"home","smartRotate":false"#),
                Line.timeline("com.b", "B", at: "08:00", [("09:00", 5, 1800)]),
            ]
        let v = try verdict(lines, at: "09:10", widget: "B")
        #expect(v.reasons.first?.code == "STACK_TOGGLE_OFF" && v.reasons.first?.events == [4])
    }

    @Test("OUTRANKED shows both ranks")
    func outranked() throws {
        let lines =
            VerdictTests.base + [
                Line.timeline("com.a", "A", at: "07:00", [("07:00", 1, 60), ("09:00", 10, 3600)]),
                Line.timeline("com.b", "B", at: "07:00", [("07:00", 5000, 60), ("09:00", 1000, 3600)]),
            ]
        let v = try verdict(lines, at: "09:10", widget: "B")
        let r = try #require(v.reasons.first)
        // Two providers' scores compare only through the policy's normalisation (R2 compares a provider's own).
        #expect(
            r.code == "OUTRANKED" && r.basis == .policy && r.rule == "normalizationWindowDays"
                && r.detail.contains("ranks 0") && r.detail.contains("ranks 1"))
    }

    @Test("DONATION_NO_MATCH names the parameter that differs")
    func donationNoMatch() throws {
        let lines = SignalRuleTests.festivalStack + SignalRuleTests.donations(#"{"city":"Lyon","type":"Art"}"#)
        let v = try verdict(lines, at: "09:05", widget: "f")
        let r = try #require(v.reasons.first { $0.code == "DONATION_NO_MATCH" })
        #expect(r.detail.contains("city") && r.detail.contains("Lyon") && r.detail.contains("Paris"))
        #expect(r.events.count == 3)
    }

    @Test("DONATION_DELETED and PATTERN_NOT_LEARNED")
    func donationDeleted() throws {
        let lines =
            SignalRuleTests.festivalStack + SignalRuleTests.donations() + [
                Line.event(
                    "intent.donationsDeleted", at: "2026-02-27T12:00:00Z", app: "com.fest",
                    #""intent":"FestivalIntent""#)
            ]
        let v = try verdict(lines, at: "09:05", widget: "f")
        #expect(codes(v).contains("DONATION_DELETED") && codes(v).contains("PATTERN_NOT_LEARNED"))
        let deleted = try #require(v.reasons.first { $0.code == "DONATION_DELETED" })
        #expect(deleted.events.contains(7))
    }

    @Test("RELEVANT_SHORTCUT_INVALIDATED cites the replacing set; PROVIDER_WINDOW_CLOSED the window")
    func shortcuts() throws {
        let omitted =
            SignalRuleTests.phone + [
                SignalRuleTests.calendar,
                Line.event("shortcuts.relevantSet", at: "09:00", app: "com.cal", #""shortcuts":[]"#),
            ]
        let v = try verdict(omitted, at: "09:35", widget: "Cal")
        let r = try #require(v.reasons.first { $0.code == "RELEVANT_SHORTCUT_INVALIDATED" })
        #expect(r.events == [3, 4])
        let closed = try verdict(SignalRuleTests.phone + [SignalRuleTests.calendar], at: "10:05", widget: "Cal")
        #expect(codes(closed).contains("PROVIDER_WINDOW_CLOSED"))
    }

    @Test("PROVIDER_TYPE_UNSUPPORTED, FAMILY_MISMATCH, ALREADY_IN_STACK, STACK_TOGGLE_OFF on the suggestion path")
    func suggestionPath() throws {
        let routine =
            SignalRuleTests.phone + [
                Line.event(
                    "shortcuts.relevantSet", at: "07:00", app: "com.gym",
                    #""shortcuts":[{"widgetKind":"Gym","intent":null,"relevanceProviders":[{"dailyRoutine":"gym"}]}]"#)
            ]
        #expect(codes(try verdict(routine, at: "08:00", widget: "Gym")).contains("PROVIDER_TYPE_UNSUPPORTED"))
        let family =
            SignalRuleTests.phone + [
                SignalRuleTests.calendar,
                Line.event(
                    "widget.declared", at: "06:00", app: "com.cal",
                    #""kind":"Cal","families":["systemLarge"],"configuration":"static""#),
            ]
        #expect(try verdict(family, at: "09:35", widget: "Cal").reasons.first?.code == "FAMILY_MISMATCH")
        let held = [
            Line.stack(), Line.stack("other", at: "06:00"), Line.add("w", app: "com.weather", kind: "Weather"),
            Line.add("c", app: "com.cal", kind: "Cal", stack: "other"), SignalRuleTests.calendar,
        ]
        #expect(codes(try verdict(held, at: "09:35", widget: "Cal")).contains("ALREADY_IN_STACK"))
        let off = [
            Line.stack(suggestions: false), Line.add("w", app: "com.weather", kind: "Weather"),
            SignalRuleTests.calendar,
        ]
        #expect(try verdict(off, at: "09:35", widget: "Cal").reasons.first?.code == "STACK_TOGGLE_OFF")
    }

    @Test("PLATFORM_IGNORES_SIGNAL, PERMISSION_MISSING and GROUP_SUPPRESSED on watchOS")
    func watch() throws {
        let ios = SignalRuleTests.watch.map {
            $0.replacingOccurrences(of: "watchOS", with: "iOS").replacingOccurrences(
                of: "accessoryRectangular", with: "systemSmall")
        }
        #expect(
            try verdict(ios, at: "18:10", stack: "watch", widget: "Pace").reasons.first?.code
                == "PLATFORM_IGNORES_SIGNAL")
        let noPermission = SignalRuleTests.watch.filter { !$0.contains("permission.changed") }
        #expect(
            try verdict(noPermission, at: "18:10", stack: "watch", widget: "Pace").reasons.first?.code
                == "PERMISSION_MISSING")
        let grouped =
            SignalRuleTests.watch + [
                Line.event(
                    "intents.relevantSet", at: "07:30", app: "com.run",
                    #""intents":[{"widgetKind":"Pace","intent":{"intent":"PaceIntent"},"context":{"fitness":"workoutActive"}},{"widgetKind":"Splits","intent":{"intent":"SplitsIntent"},"context":{"fitness":"workoutActive"}}]"#
                )
            ]
        #expect(codes(try verdict(grouped, at: "18:10", stack: "watch", widget: "Splits")).contains("GROUP_SUPPRESSED"))
    }

    @Test("PINNED: a pinned top says so")
    func pinned() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event("stack.widgetPinned", at: "06:10", #""stack":"watch","instance":"clock""#)
            ]
        let v = try verdict(lines, at: "12:00", stack: "watch", widget: "clock")
        #expect(v.onTop && codes(v) == ["PINNED"])
    }

    @Test("STACK_FULL when the stack holds the policy's maximum")
    func stackFull() throws {
        var params = PolicyParameters()
        params.maxWidgetsPerStack = 1
        let v = try verdict(
            SignalRuleTests.phone + [SignalRuleTests.calendar], at: "09:35", widget: "Cal",
            policy: Policy(parameters: params))
        #expect(codes(v).contains("STACK_FULL"))
    }
}

import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// Relevant shortcuts (S), donations (D), platforms (P), watchOS (W), suggestions (G2, G4).
@Suite("Shortcut, donation, platform and watchOS rules")
struct SignalRuleTests {
    static let phone = [
        Line.stack(),
        Line.add("w", app: "com.weather", kind: "Weather"),
    ]

    static let calendar = Line.event(
        "shortcuts.relevantSet", at: "08:00", app: "com.cal",
        #""shortcuts":[{"widgetKind":"Cal","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-03-02T09:30:00Z","end":"2026-03-02T10:00:00Z"}}]}]"#
    )

    func stack(_ lines: [String], at time: String, policy: Policy = Policy(), id: String = "home") throws
        -> StackSnapshot
    {
        try #require(try EngineHarness(lines, policy: policy).stack(id, at: Line.t(time)))
    }

    @Test("S6 and G2: a date provider opens a suggestion on top and its end removes it")
    func s6() throws {
        let lines = SignalRuleTests.phone + [SignalRuleTests.calendar]
        let open = try stack(lines, at: "09:35")
        #expect(open.top?.widget.instance == "sys:com.cal/Cal" && open.top?.suggested == true)
        #expect(open.widgets.map(\.position) == [0, 1])
        #expect(
            open.decision?.reasons.first?.code == "RELEVANT_SHORTCUT" && open.decision?.reasons.first?.events == [3])
        let closed = try stack(lines, at: "10:05")
        #expect(closed.widgets.map(\.widget.instance) == ["w"])
        #expect(closed.top?.widget.instance == "w")
    }

    @Test("S2 and S3: a later set replaces the app's whole set; an omitted shortcut is invalidated")
    func s3() throws {
        let lines =
            SignalRuleTests.phone + [
                SignalRuleTests.calendar,
                Line.event("shortcuts.relevantSet", at: "09:00", app: "com.cal", #""shortcuts":[]"#),
            ]
        #expect(try stack(lines, at: "09:35").widgets.map(\.widget.instance) == ["w"])
    }

    @Test("S2: a later set naming the same kinds takes over with its own windows and is the one a suggestion names")
    func s2SameKinds() throws {
        let lines =
            SignalRuleTests.phone + [
                SignalRuleTests.calendar,
                Line.event(
                    "shortcuts.relevantSet", at: "09:00", app: "com.cal",
                    #""shortcuts":[{"widgetKind":"Cal","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-03-02T10:30:00Z","end":"2026-03-02T11:00:00Z"}}]}]"#
                ),
            ]
        #expect(try stack(lines, at: "09:35").widgets.map(\.widget.instance) == ["w"])
        let open = try stack(lines, at: "10:35")
        #expect(open.top?.widget.instance == "sys:com.cal/Cal" && open.top?.suggested == true)
        #expect(
            open.decision?.reasons.first?.code == "RELEVANT_SHORTCUT" && open.decision?.reasons.first?.events == [4])
        #expect(try stack(lines, at: "11:05").widgets.map(\.widget.instance) == ["w"])
    }

    @Test("S5: a shortcut without providers defers to the usage model")
    func s5() throws {
        var lines =
            SignalRuleTests.phone + [
                Line.event(
                    "shortcuts.relevantSet", at: "2026-03-01T08:00:00Z", app: "com.news",
                    #""shortcuts":[{"widgetKind":"News","intent":null,"relevanceProviders":[]}]"#)
            ]
        for day in ["2026-02-26", "2026-02-27", "2026-02-28"] {
            lines.append(Line.event("app.foreground", at: "\(day)T09:10:00Z", app: "com.news", #""duration":60"#))
        }
        #expect(try stack(lines, at: "09:05").top?.widget.instance == "sys:com.news/News")
        #expect(try stack(lines, at: "08:55").top?.widget.instance == "w")
    }

    @Test("S5: an app use that completes the usage pattern rotates a member whose shortcut has no providers at once")
    func s5MemberRotatesOnUse() throws {
        var lines = [
            Line.stack(), Line.add("w", app: "com.weather", kind: "Weather"),
            Line.add("n", app: "com.news", kind: "News"),
            Line.event(
                "shortcuts.relevantSet", at: "2026-02-27T08:00:00Z", app: "com.news",
                #""shortcuts":[{"widgetKind":"News","intent":null,"relevanceProviders":[]}]"#),
        ]
        for day in ["2026-02-28", "2026-03-01"] {
            lines.append(Line.event("app.foreground", at: "\(day)T09:10:00Z", app: "com.news", #""duration":60"#))
        }
        // Looked at early in the hour (two uses: no pattern yet), then the third use.
        lines.append(
            Line.event("context.changed", at: "09:05", #""context":{"location":{"inferred":"work"}},"active":true"#))
        lines.append(Line.event("app.foreground", at: "09:20", app: "com.news", #""duration":60"#))
        #expect(try stack(lines, at: "09:15").top?.widget.instance == "w")
        let after = try stack(lines, at: "09:25")
        #expect(after.top?.widget.instance == "n")
        #expect(after.decision?.reasons.first?.rule == "S5")
    }

    @Test("G2: a kind already in a stack is not suggested; suggestions off suggests nothing")
    func g2() throws {
        let held =
            SignalRuleTests.phone + [Line.add("c", app: "com.cal", kind: "Cal", at: "06:05"), SignalRuleTests.calendar]
        #expect(try stack(held, at: "09:35").widgets.allSatisfy { !$0.suggested })
        let off = [
            Line.stack(suggestions: false), Line.add("w", app: "com.weather", kind: "Weather"),
            SignalRuleTests.calendar,
        ]
        #expect(try stack(off, at: "09:35").widgets.allSatisfy { !$0.suggested })
    }

    @Test("G4: location-based suggestions need location authorisation for widgets")
    func g4() throws {
        var params = PolicyParameters()
        params.suggestionProviders = ["date", "empty", "dailyRoutine"]
        let policy = Policy(parameters: params)
        let lines =
            SignalRuleTests.phone + [
                Line.event(
                    "shortcuts.relevantSet", at: "07:00", app: "com.gym",
                    #""shortcuts":[{"widgetKind":"Gym","intent":null,"relevanceProviders":[{"dailyRoutine":"gym"}]},{"widgetKind":"Work","intent":null,"relevanceProviders":[{"dailyRoutine":"work"}]}]"#
                ),
                Line.event(
                    "context.changed", at: "08:00", #""context":{"location":{"inferred":"work"}},"active":true"#),
            ]
        #expect(try stack(lines, at: "08:30", policy: policy).widgets.allSatisfy { !$0.suggested })
        let granted =
            lines + [
                Line.event(
                    "permission.changed", at: "07:30", app: "com.gym",
                    #""permission":"locationForWidgets","granted":true"#)
            ]
        #expect(try stack(granted, at: "08:30", policy: policy).top?.widget.kind == "Work")
        // With the default providers (date and empty), a routine provider opens nothing.
        #expect(try stack(granted, at: "08:30").widgets.allSatisfy { !$0.suggested })
    }

    static let festival = #"{"intent":"FestivalIntent","parameters":{"city":"Paris","type":"Art"}}"#

    static func donations(_ parameters: String = #"{"city":"Paris","type":"Art"}"#) -> [String] {
        ["2026-02-26", "2026-02-27", "2026-02-28"].map { day in
            Line.event(
                "intent.donated", at: "\(day)T09:10:00Z", app: "com.fest",
                #""api":"appIntents","intent":{"intent":"FestivalIntent","parameters":\#(parameters)},"predictionParameters":["city","type"]"#
            )
        }
    }

    static let festivalStack = [
        Line.stack(at: "2026-02-25T06:00:00Z"),
        Line.add("w", app: "com.weather", kind: "Weather", at: "2026-02-25T06:01:00Z"),
        Line.add("f", app: "com.fest", kind: "Festival", configuration: festival, at: "2026-02-25T06:02:00Z"),
    ]

    @Test("D1 and D2: donations matching a configured widget's parameters teach a pattern that rotates it")
    func d2() throws {
        let s = try stack(SignalRuleTests.festivalStack + SignalRuleTests.donations(), at: "09:05")
        #expect(s.top?.widget.instance == "f")
        #expect(s.decision?.reasons.map(\.code) == ["DONATION_PATTERN", "DONATION_PATTERN"])
        #expect(s.decision?.reasons.first?.rule == "D2" && s.decision?.reasons.last?.basis == .policy)
        #expect(s.decision?.reasons.first?.events.count == 3)
        // Before the third donation there is no pattern.
        #expect(
            try stack(SignalRuleTests.festivalStack + SignalRuleTests.donations(), at: "2026-02-28T09:05:00Z").top?
                .widget.instance == "w")
    }

    @Test("D1: a donation whose parameters differ from the widget's does not match")
    func d1() throws {
        let lines = SignalRuleTests.festivalStack + SignalRuleTests.donations(#"{"city":"Lyon","type":"Art"}"#)
        #expect(try stack(lines, at: "09:05").top?.widget.instance == "w")
    }

    @Test("D1: a widget added again with a new configuration is matched against it within the same hour")
    func d1Reconfigured() throws {
        let lyon = #"{"city":"Lyon","type":"Art"}"#
        let lines =
            SignalRuleTests.festivalStack + SignalRuleTests.donations(lyon) + [
                // Looked at this hour with the Paris configuration (no match), then configured for Lyon.
                Line.event(
                    "intent.donated", at: "09:01", app: "com.fest",
                    #""api":"appIntents","intent":{"intent":"FestivalIntent","parameters":\#(lyon)},"predictionParameters":["city","type"]"#
                ),
                Line.add(
                    "f", app: "com.fest", kind: "Festival",
                    configuration: SignalRuleTests.festival.replacingOccurrences(of: "Paris", with: "Lyon"), at: "09:02"
                ),
            ]
        #expect(try stack(Array(lines.dropLast()), at: "09:05").top?.widget.instance == "w")
        let s = try stack(lines, at: "09:05")
        #expect(s.top?.widget.instance == "f")
        #expect(s.decision?.reasons.first?.rule == "D2" && s.decision?.reasons.first?.events.count == 4)
    }

    @Test("D3: with no matching widget in a stack, the widget is suggested")
    func d3() throws {
        let lines =
            SignalRuleTests.festivalStack + SignalRuleTests.donations() + [
                Line.event("stack.widgetRemoved", at: "2026-02-25T07:00:00Z", #""stack":"home","instance":"f""#)
            ]
        let s = try stack(lines, at: "09:05")
        #expect(s.top?.widget.instance == "sys:com.fest/Festival" && s.top?.suggested == true)
        #expect(s.decision?.reasons.first?.rule == "D3")
    }

    @Test("D4: deleted donations no longer count")
    func d4() throws {
        let lines =
            SignalRuleTests.festivalStack + SignalRuleTests.donations() + [
                Line.event(
                    "intent.donationsDeleted", at: "2026-02-27T12:00:00Z", app: "com.fest",
                    #""intent":"FestivalIntent""#)
            ]
        #expect(try stack(lines, at: "09:05").top?.widget.instance == "w")
    }

    @Test("D5: a non-configurable widget matches donations without parameters")
    func d5() throws {
        var lines = [
            Line.stack(at: "2026-02-25T06:00:00Z"),
            Line.add("w", app: "com.weather", kind: "Weather", at: "2026-02-25T06:01:00Z"),
            Line.add("n", app: "com.news", kind: "News", at: "2026-02-25T06:02:00Z"),
            Line.event(
                "shortcuts.relevantSet", at: "2026-02-25T07:00:00Z", app: "com.news",
                #""shortcuts":[{"widgetKind":"News","intent":{"intent":"OpenNewsIntent"},"relevanceProviders":[{"date":{"start":"2026-02-25T07:00:00Z","end":"2026-02-25T07:01:00Z"}}]}]"#
            ),
        ]
        for day in ["2026-02-26", "2026-02-27", "2026-02-28"] {
            lines.append(
                Line.event(
                    "intent.donated", at: "\(day)T09:10:00Z", app: "com.news",
                    #""api":"appIntents","intent":{"intent":"OpenNewsIntent"}"#))
        }
        #expect(try stack(lines, at: "09:05").top?.widget.instance == "n")
    }

    static let watch = [
        Line.device(platform: "watchOS"),
        Line.stack("watch", platform: "watchOS", family: "accessoryRectangular"),
        Line.add("clock", app: "com.clock", kind: "Clock", stack: "watch", family: "accessoryRectangular"),
        Line.event("permission.changed", at: "06:00", app: "com.run", #""permission":"workout","granted":true"#),
        Line.event(
            "intents.relevantSet", at: "07:00", app: "com.run",
            #""intents":[{"widgetKind":"Pace","intent":{"intent":"PaceIntent","parameters":{"unit":"km"}},"context":{"fitness":"workoutActive"}}]"#
        ),
        Line.event("context.changed", at: "18:00", #""context":{"fitness":"workoutActive"},"active":true"#),
        Line.event("context.changed", at: "18:45", #""context":{"fitness":"workoutActive"},"active":false"#),
    ]

    @Test("W2: a relevance card is shown while its context matches")
    func w2() throws {
        let s = try stack(SignalRuleTests.watch, at: "18:10", id: "watch")
        #expect(s.top?.widget.instance == "sys:com.run/Pace" && s.top?.suggested == true)
        #expect(
            s.decision?.reasons.first?.code == "RELEVANT_CONTEXT" && s.decision?.reasons.first?.events == [4, 5, 6])
        #expect(try stack(SignalRuleTests.watch, at: "19:00", id: "watch").widgets.map(\.widget.instance) == ["clock"])
    }

    @Test("W1: relevant intents replace the app's whole set")
    func w1() throws {
        let lines =
            SignalRuleTests.watch + [Line.event("intents.relevantSet", at: "17:00", app: "com.run", #""intents":[]"#)]
        #expect(try stack(lines, at: "18:10", id: "watch").widgets.map(\.widget.instance) == ["clock"])
    }

    @Test("W3: a fitness clue needs its permission")
    func w3() throws {
        let lines = SignalRuleTests.watch.filter { !$0.contains("permission.changed") }
        #expect(try stack(lines, at: "18:10", id: "watch").widgets.map(\.widget.instance) == ["clock"])
    }

    @Test("P1: RelevanceKit signals act on watchOS only")
    func p1() throws {
        let lines = SignalRuleTests.watch.map {
            $0.replacingOccurrences(of: "watchOS", with: "iOS").replacingOccurrences(
                of: "accessoryRectangular", with: "systemSmall")
        }
        #expect(try stack(lines, at: "18:10", id: "watch").widgets.map(\.widget.instance) == ["clock"])
    }

    @Test("P2: timeline relevance acts on iOS and iPadOS, not on watchOS")
    func p2() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.add(
                    "pace", app: "com.other", kind: "Other", stack: "watch", family: "accessoryRectangular", at: "06:05"
                ),
                Line.timeline("com.other", "Other", at: "08:00", [("09:00", 9, 3600)]),
            ]
        #expect(try stack(lines, at: "09:10", id: "watch").top?.widget.instance == "clock")
        var params = PolicyParameters()
        params.watchUsesEntryRelevance = true
        #expect(
            try stack(lines, at: "09:10", policy: Policy(parameters: params), id: "watch").top?.widget.instance
                == "pace")
    }

    @Test("P3: on iOS 17, relevant intents also inform suggestions (policy)")
    func p3() throws {
        let lines = [
            Line.device(os: "17.4"), Line.stack(), Line.add("w", app: "com.weather", kind: "Weather"),
            Line.event("permission.changed", at: "06:00", app: "com.run", #""permission":"workout","granted":true"#),
            Line.event(
                "intents.relevantSet", at: "07:00", app: "com.run",
                #""intents":[{"widgetKind":"Pace","intent":{"intent":"PaceIntent"},"context":{"fitness":"workoutActive"}}]"#
            ),
            Line.event("context.changed", at: "18:00", #""context":{"fitness":"workoutActive"},"active":true"#),
        ]
        let s = try stack(lines, at: "18:10")
        #expect(s.top?.widget.instance == "sys:com.run/Pace")
        #expect(s.decision?.reasons.map(\.rule) == ["P3", "relevantIntentsOnIOS17"])
        let current = lines.map { $0.replacingOccurrences(of: "17.4", with: "26.1") }
        #expect(try stack(current, at: "18:10").widgets.allSatisfy { !$0.suggested })
    }

    @Test("W4: members of one relevance group are not shown at the same time")
    func w4() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event(
                    "intents.relevantSet", at: "07:30", app: "com.run",
                    #""intents":[{"widgetKind":"Pace","intent":{"intent":"PaceIntent"},"context":{"fitness":"workoutActive"}},{"widgetKind":"Splits","intent":{"intent":"SplitsIntent"},"context":{"fitness":"workoutActive"}}]"#
                )
            ]
        #expect(try stack(lines, at: "18:10", id: "watch").widgets.filter(\.suggested).count == 1)
        var params = PolicyParameters()
        params.defaultRelevanceGroup = "none"
        #expect(
            try stack(lines, at: "18:10", policy: Policy(parameters: params), id: "watch").widgets.filter(\.suggested)
                .count == 2)
    }

    @Test("W5: a relevance widget shows one card per matching clue")
    func w5() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event(
                    "widget.declared", at: "06:00", app: "com.wx",
                    #""kind":"Wx","families":["accessoryRectangular"],"configuration":"relevance""#),
                Line.event(
                    "widget.relevance", at: "07:00", app: "com.wx",
                    #""kind":"Wx","attributes":[{"configuration":null,"context":{"date":{"from":"2026-03-02T10:00:00Z","to":"2026-03-02T11:00:00Z"}},"group":"ungrouped"},{"configuration":null,"context":{"date":{"from":"2026-03-02T10:30:00Z","to":"2026-03-02T12:00:00Z"}},"group":"ungrouped"}]"#
                ),
            ]
        let s = try stack(lines, at: "10:45", id: "watch")
        #expect(Set(s.widgets.filter(\.suggested).map(\.widget.instance)) == ["sys:com.wx/Wx", "sys:com.wx/Wx#2"])
        // The first clue's window closed; the second's card stays under its instance.
        #expect(
            try stack(lines, at: "11:30", id: "watch").widgets.filter(\.suggested).map(\.widget.instance) == [
                "sys:com.wx/Wx#2"
            ])
    }

    @Test("W6: people pin timeline widgets to a fixed position")
    func w6() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event("stack.widgetPinned", at: "06:10", #""stack":"watch","instance":"clock""#)
            ]
        #expect(try stack(lines, at: "12:00", id: "watch").widgets.first?.pinned == true)
        // A card shown during the workout flows around the pinned widget, which keeps
        // its position; unpinned, the card comes first.
        let pinned = try stack(lines, at: "18:10", id: "watch").widgets
        #expect(pinned.map(\.widget.instance) == ["clock", "sys:com.run/Pace"])
        #expect(pinned.map(\.position) == [0, 1])
        let unpinned = try stack(SignalRuleTests.watch, at: "18:10", id: "watch").widgets
        #expect(unpinned.map(\.widget.instance) == ["sys:com.run/Pace", "clock"])
        let released = lines + [Line.event("stack.widgetUnpinned", at: "18:05", #""stack":"watch","instance":"clock""#)]
        #expect(
            try stack(released, at: "18:10", id: "watch").widgets.map(\.widget.instance) == [
                "sys:com.run/Pace", "clock",
            ])
    }

    @Test("W5: a relevance widget's card takes the place of its associated kind")
    func w5AssociatedKind() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event(
                    "widget.declared", at: "06:00", app: "com.clock",
                    #""kind":"ClockCards","families":["accessoryRectangular"],"configuration":"relevance","associatedKind":"Clock""#
                ),
                Line.event(
                    "widget.relevance", at: "07:00", app: "com.clock",
                    #""kind":"ClockCards","attributes":[{"configuration":null,"context":{"date":{"from":"2026-03-02T10:00:00Z","to":"2026-03-02T11:00:00Z"}},"group":"ungrouped"}]"#
                ),
                Line.event("stack.widgetPinned", at: "06:10", #""stack":"watch","instance":"clock""#),
            ]
        // While the card shows, it stands where the pinned Clock was; after, Clock is back.
        #expect(
            try stack(lines, at: "10:30", id: "watch").widgets.map(\.widget.instance) == ["sys:com.clock/ClockCards"])
        #expect(try stack(lines, at: "11:30", id: "watch").widgets.map(\.widget.instance) == ["clock"])
        // Without the association the card is shown beside Clock.
        let plain = lines.map { $0.replacingOccurrences(of: #","associatedKind":"Clock""#, with: "") }
        #expect(
            try stack(plain, at: "10:30", id: "watch").widgets.map(\.widget.instance) == [
                "clock", "sys:com.clock/ClockCards",
            ])
    }

    @Test("W5: a relevance widget cannot be pinned")
    func w5NeverPinned() throws {
        let lines =
            SignalRuleTests.watch + [
                Line.event(
                    "widget.declared", at: "06:00", app: "com.clock",
                    #""kind":"Clock","families":["accessoryRectangular"],"configuration":"relevance""#),
                Line.event("stack.widgetPinned", at: "06:10", #""stack":"watch","instance":"clock""#),
            ]
        #expect(try stack(lines, at: "12:00", id: "watch").widgets.first?.pinned == false)
    }
}

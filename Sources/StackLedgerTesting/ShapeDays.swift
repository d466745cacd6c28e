import RecordFormat
import SmartStack

/// The days of one generated device: its setup on the first day, then each day's events of
/// its shape (`ShapeGenerator.Shape`), in local time one hour east of UTC.
struct DeviceDays {
    let name: String
    let shape: ShapeGenerator.Shape
    let index: Int
    /// 2025-04-01, so that a device's months of history end near the present.
    static let firstDay: Int64 = 20_179
    /// The stacks of a many-stacks device: how many, and the widgets of each.
    var stacks: [[Widget]] = []

    struct Widget {
        var instance: String
        var app: Int
        var kind: Int
    }

    init(name: String, shape: ShapeGenerator.Shape, index: Int) {
        self.name = name
        self.shape = shape
        self.index = index
    }

    static let contexts = [
        #"{"location":{"inferred":"work"}}"#, #"{"location":{"inferred":"home"}}"#,
        #"{"location":{"inferred":"commute"}}"#, #"{"fitness":"workoutActive"}"#,
        #"{"hardware":{"headphones":"connected"}}"#, #"{"sleep":"bedtime"}"#, #"{"location":{"category":"cafe"}}"#,
    ]
    static let routines = ["morning", "evening", "home", "work", "commute", "gym", "headphonesConnected"]

    static func app(_ a: Int) -> String { "com.example.app\(a)" }
    static func kind(_ a: Int, _ k: Int = 0) -> String { "Kind\(a)x\(k)" }
    static func intent(_ a: Int) -> String { "Intent\(a)" }

    /// The events of day `day`, in no particular order.
    mutating func day(_ day: Int64, rng: inout SplitMix64) -> [GeneratedLine] {
        var day = Day(midnight: (Self.firstDay + day) * 86_400_000_000 - 3_600_000_000, first: day == 0)
        switch shape {
        case .phoneApps, .mixed: phoneApps(&day, rng: &rng)
        case .phoneTimelines: phoneTimelines(&day, rng: &rng)
        case .watch: watch(&day, rng: &rng)
        case .manyStacks: manyStacks(&day, rng: &rng)
        }
        return day.lines
    }

    /// A day being generated: its local midnight and its lines so far.
    struct Day {
        let midnight: Int64
        let first: Bool
        var lines: [GeneratedLine] = []

        /// A random instant between `from` and `to` hours of the day.
        func instant(_ from: Int64, _ to: Int64, _ rng: inout SplitMix64) -> Int64 {
            midnight + from * 3_600_000_000 + Int64(rng.next() % UInt64((to - from) * 3_600_000_000))
        }

        static func text(_ t: Int64) -> String { Timestamp(microseconds: t, offsetMinutes: 60).rfc3339 }

        mutating func add(_ time: Int64, _ type: String, app: String? = nil, _ fields: String) {
            lines.append(GeneratedLine(time: time, type: type, app: app, fields: fields))
        }
    }

    // MARK: Shared pieces

    func setUp(_ day: inout Day, platform: String, apps: Int, kinds: Int = 1, configuration: String = "intent") {
        let t = day.midnight + 7 * 3_600_000_000
        day.add(t, "device.info", #""platform":"\#(platform)","osVersion":"26.1","timeZone":"Europe/Paris""#)
        for a in 0..<apps {
            for k in 0..<kinds {
                let families = platform == "watchOS" ? #"["accessoryRectangular"]"# : #"["systemSmall","systemMedium"]"#
                day.add(
                    t, "widget.declared", app: Self.app(a),
                    #""kind":"\#(Self.kind(a, k))","families":\#(families),"configuration":"\#(configuration)""#)
            }
        }
        day.add(t, "permission.changed", app: Self.app(0), #""permission":"locationForWidgets","granted":true"#)
    }

    func widget(_ instance: String, app a: Int, kind k: Int = 0, family: String) -> String {
        #"{"instance":"\#(instance)","app":"\#(Self.app(a))","kind":"\#(Self.kind(a, k))","family":"\#(family)","configuration":{"intent":"\#(Self.intent(a))","parameters":{"item":"item-\#(a % 4)"}}}"#
    }

    func stack(_ day: inout Day, id: String, platform: String, family: String, widgets: [(Int, Int)]) {
        let t = day.midnight + 7 * 3_600_000_000 + 1
        day.add(t, "stack.created", #""stack":"\#(id)","platform":"\#(platform)","family":"\#(family)""#)
        for (n, (a, k)) in widgets.enumerated() {
            day.add(
                t, "stack.widgetAdded",
                #""stack":"\#(id)","widget":\#(widget(id + "-w" + String(n), app: a, kind: k, family: family))"#)
        }
    }

    func timeline(_ day: inout Day, app a: Int, kind k: Int = 0, entries: Int, rng: inout SplitMix64) {
        let t = day.instant(6, 23, &rng)
        let items = (0..<entries).map { e -> String in
            let at = Day.text(t + Int64(e) * 900_000_000)
            let score = Double(rng.next() % 10_000) / 100
            return #"{"date":"\#(at)","relevance":{"score":\#(score),"duration":\#(600 + rng.next() % 4 * 600)}}"#
        }
        day.add(
            t, "widget.timeline", app: Self.app(a),
            #""kind":"\#(Self.kind(a, k))","entries":[\#(items.joined(separator: ","))]"#)
    }

    func donation(_ day: inout Day, app a: Int, rng: inout SplitMix64) {
        day.add(
            day.instant(7, 23, &rng), "intent.donated", app: Self.app(a),
            #""api":"appIntents","intent":{"intent":"\#(Self.intent(a))","parameters":{"item":"item-\#(rng.next() % 4)"}},"predictionParameters":["item"]"#
        )
    }

    func contextChanges(_ day: inout Day, pairs: Int, rng: inout SplitMix64) {
        for _ in 0..<pairs {
            let context = Self.contexts[Int(rng.next() % UInt64(Self.contexts.count))]
            let start = day.instant(6, 21, &rng)
            day.add(start, "context.changed", #""context":\#(context),"active":true"#)
            day.add(
                start + Int64(1 + rng.next() % 120) * 60_000_000, "context.changed",
                #""context":\#(context),"active":false"#)
        }
    }

    func shortcuts(_ day: inout Day, app a: Int, rng: inout SplitMix64) {
        let t = day.instant(6, 23, &rng)
        let end = Day.text(t + 3_600_000_000)
        let routine = Self.routines[Int(rng.next() % UInt64(Self.routines.count))]
        day.add(
            t, "shortcuts.relevantSet", app: Self.app(a),
            #""shortcuts":[{"widgetKind":"\#(Self.kind(a))","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"\#(Day.text(t))","end":"\#(end)"}}]},{"widgetKind":"\#(Self.kind(a))","intent":{"intent":"\#(Self.intent(a))","parameters":{"item":"item-\#(rng.next() % 4)"}},"relevanceProviders":[{"dailyRoutine":"\#(routine)"}]}]"#
        )
    }

    /// An app chosen with a skew: the first apps are used far more than the last.
    func skewed(_ apps: Int, _ rng: inout SplitMix64) -> Int {
        let r = Int(rng.next() % UInt64(apps * apps))
        return apps - 1 - Int(Double(r).squareRoot())
    }

    // MARK: Shapes

    func phoneApps(_ day: inout Day, rng: inout SplitMix64) {
        let apps = 12
        if day.first {
            setUp(&day, platform: "iOS", apps: apps)
            stack(&day, id: "home", platform: "iOS", family: "systemSmall", widgets: [(0, 0), (1, 0), (2, 0), (3, 0)])
        }
        for _ in 0..<52 { donation(&day, app: skewed(apps, &rng), rng: &rng) }
        for _ in 0..<44 {
            day.add(
                day.instant(7, 24, &rng), "app.foreground", app: Self.app(skewed(apps, &rng)),
                #""duration":\#(5 + rng.next() % 600)"#)
        }
        for _ in 0..<70 { timeline(&day, app: Int(rng.next() % 6), entries: 5, rng: &rng) }
        for _ in 0..<20 { shortcuts(&day, app: Int(rng.next() % UInt64(apps)), rng: &rng) }
        contextChanges(&day, pairs: 5, rng: &rng)
        for _ in 0..<10 {
            day.add(
                day.instant(7, 23, &rng), "widget.reloadRequested", app: Self.app(Int(rng.next() % 4)),
                #""kind":"\#(Self.kind(Int(rng.next() % 4)))""#)
        }
    }

    func phoneTimelines(_ day: inout Day, rng: inout SplitMix64) {
        let apps = 15
        if day.first {
            setUp(&day, platform: "iOS", apps: apps, kinds: 2)
            for s in 0..<2 {
                stack(
                    &day, id: "stack-\(s)", platform: "iOS", family: "systemMedium",
                    widgets: (0..<6).map { ((s * 6 + $0) % apps, $0 % 2) })
            }
        }
        for _ in 0..<120 {
            let a = Int(rng.next() % UInt64(apps))
            timeline(&day, app: a, kind: Int(rng.next() % 2), entries: 5 + Int(rng.next() % 4), rng: &rng)
        }
        for _ in 0..<30 {
            let a = Int(rng.next() % UInt64(apps))
            day.add(
                day.instant(6, 23, &rng), "widget.reloaded", app: Self.app(a),
                #""kind":"\#(Self.kind(a, Int(rng.next() % 2)))","reason":"timeline","budgetRemaining":\#(rng.next() % 40)"#
            )
        }
        for _ in 0..<10 {
            let a = Int(rng.next() % UInt64(apps))
            day.add(
                day.instant(6, 23, &rng), "widget.reloadRequested", app: Self.app(a),
                #""kind":"\#(Self.kind(a, Int(rng.next() % 2)))""#)
        }
        for _ in 0..<20 { donation(&day, app: skewed(apps, &rng), rng: &rng) }
        for _ in 0..<10 {
            day.add(day.instant(7, 24, &rng), "app.foreground", app: Self.app(skewed(apps, &rng)), #""duration":60"#)
        }
        contextChanges(&day, pairs: 5, rng: &rng)
    }

    func watch(_ day: inout Day, rng: inout SplitMix64) {
        let apps = 10
        if day.first {
            setUp(&day, platform: "watchOS", apps: apps, configuration: "relevance")
            stack(
                &day, id: "watch", platform: "watchOS", family: "accessoryRectangular",
                widgets: (0..<8).map { ($0, 0) })
        }
        for _ in 0..<66 {
            let a = Int(rng.next() % UInt64(apps))
            let count = rng.next() % 10 == 0 ? 30 + Int(rng.next() % 91) : 1 + Int(rng.next() % 5)
            let intents = (0..<count).map { i -> String in
                let context = Self.contexts[Int(rng.next() % UInt64(Self.contexts.count))]
                return
                    #"{"widgetKind":"\#(Self.kind(a))","intent":{"intent":"\#(Self.intent(a))","parameters":{"item":"item-\#(i)"}},"context":\#(context)}"#
            }
            day.add(
                day.instant(6, 23, &rng), "intents.relevantSet", app: Self.app(a),
                #""intents":[\#(intents.joined(separator: ","))]"#)
        }
        for _ in 0..<40 {
            let a = Int(rng.next() % UInt64(apps))
            let attributes = (0..<(1 + Int(rng.next() % 3))).map { _ -> String in
                let context = Self.contexts[Int(rng.next() % UInt64(Self.contexts.count))]
                return #"{"configuration":null,"context":\#(context),"group":"automatic"}"#
            }
            day.add(
                day.instant(6, 23, &rng), "widget.relevance", app: Self.app(a),
                #""kind":"\#(Self.kind(a))","attributes":[\#(attributes.joined(separator: ","))]"#)
        }
        contextChanges(&day, pairs: 20, rng: &rng)
        for _ in 0..<30 { timeline(&day, app: Int(rng.next() % UInt64(apps)), entries: 5, rng: &rng) }
        for _ in 0..<20 { donation(&day, app: skewed(apps, &rng), rng: &rng) }
    }

    mutating func manyStacks(_ day: inout Day, rng: inout SplitMix64) {
        let apps = 40
        if day.first {
            setUp(&day, platform: "iOS", apps: apps, kinds: 2)
            let count = 40 + Int(rng.next() % 161)
            stacks = (0..<count).map { s in
                (0..<(5 + Int(rng.next() % 16))).map { n in
                    Widget(instance: "s\(s)-w\(n)", app: Int(rng.next() % UInt64(apps)), kind: Int(rng.next() % 2))
                }
            }
            for (s, widgets) in stacks.enumerated() {
                let t = day.midnight + 7 * 3_600_000_000 + 1
                day.add(t, "stack.created", #""stack":"s\#(s)","platform":"iOS","family":"systemSmall""#)
                for w in widgets {
                    day.add(
                        t, "stack.widgetAdded",
                        #""stack":"s\#(s)","widget":\#(widget(w.instance, app: w.app, kind: w.kind, family: "systemSmall"))"#
                    )
                }
            }
        }
        if !day.first && rng.next() % 4 == 0 { layout(&day, rng: &rng) }
        for _ in 0..<60 {
            let s = Int(rng.next() % UInt64(stacks.count))
            let w = stacks[s][Int(rng.next() % UInt64(stacks[s].count))]
            let t = day.instant(7, 23, &rng)
            let type = rng.next() % 3 == 0 ? "widget.tapped" : "widget.viewed"
            day.add(t, type, #""instance":"\#(w.instance)","duration":\#(rng.next() % 30),"stack":"s\#(s)""#)
        }
        for _ in 0..<40 {
            let s = Int(rng.next() % UInt64(stacks.count))
            let w = stacks[s][Int(rng.next() % UInt64(stacks[s].count))]
            let t = day.instant(7, 23, &rng)
            if rng.next() % 2 == 0 {
                day.add(t, "stack.observed", #""stack":"s\#(s)","instance":"\#(w.instance)","onScreen":true"#)
            } else {
                day.add(t, "stack.rotated", #""stack":"s\#(s)","instance":"\#(w.instance)","criterion":"relevance""#)
            }
        }
        for _ in 0..<50 { timeline(&day, app: Int(rng.next() % UInt64(apps)), entries: 5, rng: &rng) }
        for _ in 0..<30 { donation(&day, app: skewed(apps, &rng), rng: &rng) }
        contextChanges(&day, pairs: 5, rng: &rng)
    }

    /// A recorded, complete layout of every stack as it stands (SpringBoard's IconState).
    func layout(_ day: inout Day, rng: inout SplitMix64) {
        let listed = stacks.enumerated().map { s, widgets -> String in
            let members = widgets.map { widget($0.instance, app: $0.app, kind: $0.kind, family: "systemSmall") }
            return
                #"{"stack":"s\#(s)","platform":"iOS","family":"systemSmall","members":[\#(members.joined(separator: ","))]}"#
        }
        day.add(
            day.instant(3, 5, &rng), "stack.layoutObserved",
            #""layout":"IconState-\#(day.midnight)","stacks":[\#(listed.joined(separator: ","))],"method":"recorded","complete":true"#
        )
    }
}

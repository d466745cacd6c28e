import Ledger
public import SmartStack

/// Generates a realistic synthetic log: devices × apps × days of timelines with
/// relevance, donations, relevant shortcuts and intents, context changes, stack edits,
/// engagement, and a share of late-arriving events (written after newer ones).
public struct WorkloadGenerator {
    /// The shape of the workload.
    public struct Configuration: Sendable {
        public var devices = 4
        public var appsPerDevice = 8
        /// Stop after this many events.
        public var events = 100_000
        public var seed: UInt64 = 1
        /// The first day, as days since 1970 (2026-03-02 by default).
        public var firstDay: Int64 = 20_514
        /// The share of events delivered late, in percent.
        public var latePercent = 2
        /// Whether every event carries an `id`.
        public var ids = true

        public init() {}
    }

    let config: Configuration
    var rng: SplitMix64

    /// Creates a generator.
    public init(_ config: Configuration) {
        self.config = config
        self.rng = SplitMix64(seed: config.seed)
    }

    static let families = ["systemSmall", "systemMedium"]
    static let zones: [(String, Int16)] = [
        ("Europe/Paris", 60), ("America/New_York", -300), ("Asia/Tokyo", 540), ("UTC", 0),
    ]
    static let routines = ["morning", "evening", "home", "work", "commute"]

    struct App {
        var bundle: String
        var kind: String
        var intent: String
        var scale: Double
    }

    /// Calls `emit` with every event in file order, until the configured count.
    public mutating func generate(_ emit: (Event) throws -> Void) rethrows {
        var produced = 0
        var generated = 0
        var late: [Event] = []
        var day: Int64 = 0
        while produced < config.events {
            for d in 0..<config.devices {
                var dayEvents = makeDay(device: d, day: day)
                dayEvents.sort { $0.envelope.time.microseconds < $1.envelope.time.microseconds }
                for var e in dayEvents {
                    guard produced < config.events else { break }
                    if config.ids { e.envelope.id = "d\(d)-\(day)-\(generated)" }
                    generated += 1
                    if day > 0 && Int(rng.next() % 100) < config.latePercent {
                        late.append(e)
                    } else {
                        try emit(e)
                        produced += 1
                    }
                    if late.count > 64 || (produced % 1000 == 0 && !late.isEmpty) {
                        for l in late where produced < config.events {
                            try emit(l)
                            produced += 1
                        }
                        late.removeAll()
                    }
                }
            }
            day += 1
        }
    }

    /// Writes the workload as canonical NDJSON, handing `emit` chunks of about `chunk` bytes.
    public mutating func writeNDJSON(chunk: Int = 1 << 20, _ emit: ([UInt8]) throws -> Void) rethrows {
        var buffer = [UInt8]()
        buffer.reserveCapacity(chunk + 4096)
        var w = CanonicalWriter(capacity: 4096)
        try generate { event in
            w.bytes.removeAll(keepingCapacity: true)
            event.writeCanonical(&w)
            buffer.append(contentsOf: w.bytes)
            buffer.append(0x0A)
            if buffer.count >= chunk {
                try emit(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try emit(buffer) }
    }

    func apps(device: Int) -> [App] {
        (0..<config.appsPerDevice).map { a in
            App(
                bundle: "com.example.app\(a)", kind: "Widget\(a)", intent: "Configure\(a)Intent",
                scale: [1, 10, 100, 5000][a % 4])
        }
    }

    private mutating func time(_ base: Int64, _ seconds: Int64, offset: Int16) -> Timestamp {
        Timestamp(microseconds: base + seconds * 1_000_000 + Int64(rng.next() % 1_000_000), offsetMinutes: offset)
    }

    private mutating func makeDay(device d: Int, day: Int64) -> [Event] {
        let device = "device-\(d)"
        let (zone, offset) = WorkloadGenerator.zones[d % WorkloadGenerator.zones.count]
        let midnight = (config.firstDay + day) * 86_400_000_000 - Int64(offset) * 60_000_000
        let apps = apps(device: d)
        let platform = d % 4 == 3 ? "watchOS" : "iOS"
        var out = [Event]()
        func add(_ t: Timestamp, app: String? = nil, _ body: EventBody) {
            out.append(Event(time: t, device: device, app: app, body: body))
        }
        if day == 0 {
            let t0 = Timestamp(microseconds: midnight + 6 * 3_600_000_000, offsetMinutes: offset)
            add(
                t0,
                (try! decodeBody(
                    #"{"platform":"\#(platform)","osVersion":"26.1","timeZone":"\#(zone)"}"#, "device.info")))
            for s in 0..<2 {
                let family = platform == "watchOS" ? "accessoryRectangular" : WorkloadGenerator.families[s]
                add(
                    t0,
                    (try! decodeBody(
                        #"{"stack":"stack-\#(s)","platform":"\#(platform)","family":"\#(family)"}"#, "stack.created")))
                for (i, app) in apps.enumerated() where i % 2 == s && i < 6 {
                    add(
                        t0,
                        (try! decodeBody(
                            #"{"stack":"stack-\#(s)","widget":{"instance":"w-\#(d)-\#(i)","app":"\#(app.bundle)","kind":"\#(app.kind)","family":"\#(family)","configuration":{"intent":"\#(app.intent)","parameters":{"item":"item-\#(i % 3)"}}}}"#,
                            "stack.widgetAdded")))
                }
            }
            for app in apps {
                add(
                    t0, app: app.bundle,
                    (try! decodeBody(
                        #"{"kind":"\#(app.kind)","families":["systemSmall","systemMedium","accessoryRectangular"],"configuration":"intent"}"#,
                        "widget.declared")))
            }
            add(
                t0, app: apps[0].bundle,
                (try! decodeBody(#"{"permission":"locationForWidgets","granted":true}"#, "permission.changed")))
        }
        for app in apps {
            // Timelines every 1-2 hours, 4-12 entries each.
            var hour: Int64 = 6
            while hour < 23 {
                let delivered = time(midnight, hour * 3600, offset: offset)
                var entries = [String]()
                let n = 4 + Int(rng.next() % 9)
                for k in 0..<n {
                    let at = Timestamp(
                        microseconds: delivered.microseconds + Int64(k) * 900_000_000, offsetMinutes: offset)
                    let roll = rng.next() % 10
                    let rel: String
                    if roll < 2 {
                        rel = "null"
                    } else if roll < 4 {
                        rel = #"{"score":0}"#
                    } else {
                        let score = (Double(rng.next() % 10_000) / 10_000 * app.scale * 100).rounded() / 100
                        rel = #"{"score":\#(score),"duration":\#(600 + Int(rng.next() % 4) * 600)}"#
                    }
                    entries.append(#"{"date":"\#(at.rfc3339)","relevance":\#(rel)}"#)
                }
                add(
                    delivered, app: app.bundle,
                    (try! decodeBody(
                        #"{"kind":"\#(app.kind)","entries":[\#(entries.joined(separator: ","))]}"#, "widget.timeline")))
                add(
                    delivered, app: app.bundle,
                    (try! decodeBody(
                        #"{"kind":"\#(app.kind)","reason":"timeline","budgetRemaining":\#(40 - Int(hour))}"#,
                        "widget.reloaded")))
                if rng.next() % 3 == 0 {
                    add(
                        time(midnight, hour * 3600 + 1200, offset: offset), app: app.bundle,
                        (try! decodeBody(
                            #"{"api":"appIntents","intent":{"intent":"\#(app.intent)","parameters":{"item":"item-\#(rng.next() % 3)"}},"predictionParameters":["item"]}"#,
                            "intent.donated")))
                }
                if rng.next() % 4 == 0 {
                    add(
                        time(midnight, hour * 3600 + 1800, offset: offset), app: app.bundle,
                        (try! decodeBody(#"{"duration":\#(30 + rng.next() % 600)}"#, "app.foreground")))
                    add(
                        time(midnight, hour * 3600 + 1790, offset: offset), app: app.bundle,
                        (try! decodeBody(#"{"kind":"\#(app.kind)","duration":\#(rng.next() % 20)}"#, "widget.viewed")))
                }
                hour += 1 + Int64(rng.next() % 2)
            }
            if rng.next() % 2 == 0 {
                let s = time(midnight, 8 * 3600 + Int64(rng.next() % 36_000), offset: offset)
                let e = Timestamp(microseconds: s.microseconds + 1_800_000_000, offsetMinutes: offset)
                let routine = WorkloadGenerator.routines[Int(rng.next() % 5)]
                add(
                    time(midnight, 7 * 3600, offset: offset), app: app.bundle,
                    (try! decodeBody(
                        #"{"shortcuts":[{"widgetKind":"\#(app.kind)","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"\#(s.rfc3339)","end":"\#(e.rfc3339)"}}]},{"widgetKind":"\#(app.kind)","intent":{"intent":"\#(app.intent)","parameters":{"item":"item-1"}},"relevanceProviders":[{"dailyRoutine":"\#(routine)"}]}]}"#,
                        "shortcuts.relevantSet")))
            }
            if platform == "watchOS" && rng.next() % 2 == 0 {
                add(
                    time(midnight, 7 * 3600, offset: offset), app: app.bundle,
                    (try! decodeBody(
                        #"{"intents":[{"widgetKind":"\#(app.kind)","intent":{"intent":"\#(app.intent)","parameters":{"item":"item-2"}},"context":{"fitness":"workoutActive"}}]}"#,
                        "intents.relevantSet")))
            }
        }
        // Context through the day.
        let contexts: [(Int64, Int64, String)] = [
            (8, 9, #"{"location":{"inferred":"commute"}}"#), (9, 17, #"{"location":{"inferred":"work"}}"#),
            (18, 19, #"{"fitness":"workoutActive"}"#), (20, 22, #"{"hardware":{"headphones":"connected"}}"#),
        ]
        for (from, to, ctx) in contexts {
            add(
                time(midnight, from * 3600, offset: offset),
                (try! decodeBody(#"{"context":\#(ctx),"active":true}"#, "context.changed")))
            add(
                time(midnight, to * 3600, offset: offset),
                (try! decodeBody(#"{"context":\#(ctx),"active":false}"#, "context.changed")))
        }
        add(
            time(midnight, 7 * 3600 + 300, offset: offset),
            (try! decodeBody(#"{"context":{"device":"locked"},"active":false}"#, "context.changed")))
        if rng.next() % 3 == 0 {
            add(
                time(midnight, 12 * 3600, offset: offset),
                (try! decodeBody(#"{"stack":"stack-0","instance":"w-\#(d)-0"}"#, "stack.scrolled")))
        }
        if rng.next() % 7 == 0 {
            add(
                time(midnight, 13 * 3600, offset: offset),
                (try! decodeBody(#"{"stack":"stack-1","smartRotate":\#(rng.next() % 2 == 0)}"#, "stack.settingsChanged"))
            )
        }
        return out
    }

    private func decodeBody(_ fields: String, _ type: String) throws -> EventBody {
        var decoder = EventDecoder()
        let line = #"{"type":"\#(type)","time":"2026-01-01T00:00:00Z","app":"x",\#(fields.dropFirst())"#
        return try decoder.decode(line).body
    }
}

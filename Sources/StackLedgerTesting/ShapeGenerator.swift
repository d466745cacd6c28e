import RecordFormat
import SmartStack

/// Generates a log in one of the named shapes of device (docs/performance.md, "Shapes"):
/// each device's events in time order over months, one device after another, written as
/// canonical NDJSON. Unlike `WorkloadGenerator`, whose one shape the engine was tuned on,
/// these follow what real devices of each kind record.
public struct ShapeGenerator {
    /// A kind of device and what its log is made of.
    public enum Shape: String, CaseIterable, Sendable {
        /// A busy phone: donations and app launches about 45 % of events, relevant-shortcut
        /// sets every few minutes, timelines of five scored entries, one stack of four.
        case phoneApps = "phone-apps"
        /// A phone whose widgets deliver timelines all day: 30 kinds over 15 apps, reloads.
        case phoneTimelines = "phone-timelines"
        /// A watch: relevant-intent sets a third of the events (some of 30-120 intents),
        /// relevance answers, context changes.
        case watch
        /// A phone with 40-200 stacks of 5-20 widgets, a recorded complete layout every 2-5
        /// days, views, taps and the device's own records.
        case manyStacks = "many-stacks"
        /// A third each of phone-apps, watch and many-stacks devices.
        case mixed

        /// How many devices a log of this shape spreads over.
        public var devices: Int {
            switch self {
            case .phoneApps, .phoneTimelines, .watch: 20
            case .manyStacks: 10
            case .mixed: 30
            }
        }

        /// The shape of device `d` of a log of this shape.
        func device(_ d: Int) -> Shape {
            self == .mixed ? [.phoneApps, .watch, .manyStacks][d % 3] : self
        }
    }

    let shape: Shape
    let events: Int
    var rng: SplitMix64
    var lines = EventLines()
    /// How many devices the events spread over: the shape's own number unless set.
    public var devices: Int

    /// A generator of `events` events of `shape`, seeded.
    public init(shape: Shape, events: Int, seed: UInt64 = 1) {
        self.shape = shape
        self.events = events
        self.rng = SplitMix64(seed: seed)
        self.devices = shape.devices
    }

    /// Writes the log as canonical NDJSON, handing `emit` chunks of about a megabyte.
    public mutating func writeNDJSON(_ emit: ([UInt8]) throws -> Void) throws {
        var buffer = [UInt8]()
        var written = 0
        for d in 0..<devices {
            let quota = events / devices + (d < events % devices ? 1 : 0)
            var device = DeviceDays(name: "\(shape.device(d).rawValue)-\(d)", shape: shape.device(d), index: d)
            var made = 0
            var day: Int64 = 0
            while made < quota {
                var today = device.day(day, rng: &rng)
                today.sort { $0.time < $1.time }
                for line in today.prefix(quota - made) {
                    try lines.append(line, device: device.name, into: &buffer)
                    made += 1
                }
                if buffer.count >= 1 << 20 {
                    try emit(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
                day += 1
            }
            written += made
        }
        if !buffer.isEmpty { try emit(buffer) }
        precondition(written == events)
    }
}

/// One event of a generated day before it is written: its instant and its line's fields.
struct GeneratedLine {
    var time: Int64
    var type: String
    var app: String?
    var fields: String
}

/// Turns generated lines into canonical NDJSON through the contract's own decoder, so that
/// every line written is one `ingest` accepts.
struct EventLines {
    var writer = CanonicalWriter(capacity: 1 << 16)
    var decoder = EventDecoder()

    mutating func append(_ line: GeneratedLine, device: String, into buffer: inout [UInt8]) throws {
        let time = Timestamp(microseconds: line.time, offsetMinutes: 60).rfc3339
        let app = line.app.map { #","app":"\#($0)""# } ?? ""
        let text = #"{"type":"\#(line.type)","time":"\#(time)","device":"\#(device)"\#(app),\#(line.fields)}"#
        let event = try decoder.decode(text)
        writer.bytes.removeAll(keepingCapacity: true)
        event.writeCanonical(&writer)
        buffer.append(contentsOf: writer.bytes)
        buffer.append(0x0A)
    }
}

import Forensics
import Ledger
import Projections
import SmartStack

/// The oracle of `FuzzEngine`, run by libFuzzer and by the tests: the input's bytes choose
/// events whose values sit at the contract's limits (times at 1970 and the end of 2200,
/// the longest durations, the largest and smallest scores, offsets of ±23:59, timelines of
/// many entries), the valid ones are applied to an engine, and every query is asked at
/// instants from the first to the last the contract allows. Errors are expected for
/// invalid lines; a crash or a time the answers cannot write is not.
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = replayExtremeLog(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// The work of `fuzzEngine`: how many valid events the bytes chose, and how many decisions
/// and answer bytes the engine gave.
public func replayExtremeLog(_ input: UnsafeBufferPointer<UInt8>) -> (events: Int, decisions: Int, answerBytes: Int) {
    var decisions = 0
    var answerBytes = 0
    var choices = ExtremeChoices(input)
    var decoder = EventDecoder(sharingStrings: false)
    var events = [(seq: UInt64, event: Event)]()
    while !choices.isEmpty && events.count < 64 {
        let line = choices.line()
        if let event = try? decoder.decode(line) { events.append((UInt64(events.count + 1), event)) }
    }
    events.sort { ($0.event.envelope.time.microseconds, $0.seq) < ($1.event.envelope.time.microseconds, $1.seq) }
    var engine = DeviceEngine(device: Envelope.defaultDevice, policy: Policy())
    var w = CanonicalWriter()
    for (seq, event) in events where event.envelope.device == Envelope.defaultDevice {
        engine.apply(event, seq: seq)
        for d in engine.takeDecisions() {
            ProjectionJSON.write(&w, d)
            decisions += 1
        }
    }
    for at in choices.instants {
        engine.advance(to: at)
        for d in engine.takeDecisions() {
            ProjectionJSON.write(&w, d)
            decisions += 1
        }
        let snapshot = engine.snapshot(at: Timestamp(microseconds: at))
        ProjectionJSON.writeStacks(&w, snapshot.stacks)
        for stack in snapshot.stacks {
            for c in engine.candidates(stack: stack.stack) { for r in c.reasons { ProjectionJSON.write(&w, r) } }
            for kind in ExtremeChoices.kinds { _ = engine.verdict(stack: stack.stack, widget: kind) }
        }
        answerBytes += w.bytes.count
        w = CanonicalWriter()
    }
    return (events.count, decisions, answerBytes)
}

/// Reads an input's bytes as choices among extreme values.
struct ExtremeChoices {
    private var bytes: UnsafeBufferPointer<UInt8>.SubSequence

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes[...]
        era = next(3)
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// Three eras, one per input: the contract's first days, today, its last days. A log
    /// that spans 230 years is valid too, but folding it wakes the engine every hour of
    /// them: the fuzzer looks for crashes, not for that cost.
    static let eras: [[String]] = [
        [
            "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000001+23:59", "1970-01-02T12:00:00-23:59",
            "1970-01-03T00:00:00Z",
        ],
        [
            "2026-05-04T09:00:00Z", "2026-05-04T09:00:00.5+05:30", "2026-05-05T23:59:59.999999-12:00",
            "2026-05-03T00:00:00+14:00",
        ],
        [
            "2200-12-31T23:59:59.999999Z", "2200-12-31T00:00:00-23:59", "2200-12-29T00:00:00+23:59",
            "2200-12-30T12:00:00Z",
        ],
    ]
    static let instantsOfEra: [[Int64]] = [
        [0, 1, 86_400_000_000, 3 * 86_400_000_000],
        [1_777_800_000_000_000, 1_777_900_000_000_000, 1_778_100_000_000_000],
        [
            Timestamp.limit.microseconds - 4 * 86_400_000_000, Timestamp.limit.microseconds - 86_400_000_000,
            Timestamp.limit.microseconds - 1,
        ],
    ]
    private(set) var era = 0
    var times: [String] { Self.eras[era] }
    static let durations = ["0", "0.000001", "315576000", "315575999.999999", "1e-300", "86400"]
    static let scores = ["1.7976931348623157e308", "-1.7976931348623157e308", "5e-324", "0", "-0", "1", "1e300"]
    static let kinds = ["K", "L", "Ü"]
    /// The instants the queries are asked at.
    var instants: [Int64] { Self.instantsOfEra[era] }

    mutating func next(_ n: Int) -> Int {
        guard let b = bytes.first else { return 0 }
        bytes = bytes.dropFirst()
        return Int(b) % n
    }

    mutating func pick(_ xs: [String]) -> String { xs[next(xs.count)] }

    mutating func entries() -> String {
        let count = [0, 1, 2, 50, 400][next(5)]
        let base = pick(times)
        let duration = pick(Self.durations)
        let score = pick(Self.scores)
        let first =
            next(2) == 0
            ? #"{"date":"\#(base)","relevance":{"score":\#(score),"duration":\#(duration)}}"#
            : #"{"date":"\#(base)","relevance":null}"#
        return "[" + Array(repeating: first, count: count).joined(separator: ",") + "]"
    }

    mutating func line() -> String {
        let time = pick(times)
        let kind = pick(Self.kinds)
        let app = ["a", "b"][next(2)]
        switch next(9) {
        case 0:
            return
                #"{"type":"stack.created","time":"\#(time)","stack":"s\#(next(2))","platform":"\#(["iOS", "watchOS"][next(2)])","family":"systemSmall"}"#
        case 1:
            return
                #"{"type":"stack.widgetAdded","time":"\#(time)","stack":"s\#(next(2))","widget":{"instance":"w\#(next(4))","app":"\#(app)","kind":"\#(kind)","family":"systemSmall","configuration":null}}"#
        case 2:
            return
                #"{"type":"widget.timeline","time":"\#(time)","app":"\#(app)","kind":"\#(kind)"\#(next(2) == 0 ? #","instance":"w1""# : ""),"entries":\#(entries())}"#
        case 3:
            return
                #"{"type":"stack.observed","time":"\#(time)","instance":"w\#(next(4))","onScreen":true,"duration":\#(pick(Self.durations))}"#
        case 4:
            return #"{"type":"app.foreground","time":"\#(time)","app":"\#(app)","duration":\#(pick(Self.durations))}"#
        case 5: return #"{"type":"stack.scrolled","time":"\#(time)","stack":"s\#(next(2))","instance":"w\#(next(4))"}"#
        case 6:
            return
                #"{"type":"shortcuts.relevantSet","time":"\#(time)","app":"\#(app)","shortcuts":[{"widgetKind":"\#(kind)","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"\#(pick(times))","end":"\#(pick(times))"}}]}]}"#
        case 7:
            return
                #"{"type":"intents.relevantSet","time":"\#(time)","app":"\#(app)","intents":[{"widgetKind":"\#(kind)","intent":{"intent":"I","parameters":{}},"context":{"date":{"from":"\#(pick(times))","to":"\#(pick(times))","kind":"scheduled"}}}]}"#
        default:
            return
                #"{"type":"intent.donated","time":"\#(time)","app":"\#(app)","intent":{"intent":"I","parameters":{"x":\#(pick(Self.scores))}}}"#
        }
    }
}

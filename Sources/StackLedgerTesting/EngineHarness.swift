import Ledger
public import SmartStack

/// Runs the engine over events given as NDJSON lines, without a store: line order is
/// sequence order (seq 1 is the first line), events apply in (time, seq) order.
public struct EngineHarness {
    /// The events with their sequence numbers.
    public var events: [(seq: UInt64, event: Event)]
    /// The policy.
    public var policy: Policy

    /// Decodes the lines (blank ones skipped).
    public init(_ lines: [String], policy: Policy = Policy()) throws {
        var decoder = EventDecoder()
        var out = [(seq: UInt64, event: Event)]()
        for line in lines where line.contains(where: { !$0.isWhitespace }) {
            out.append((UInt64(out.count + 1), try decoder.decode(line)))
        }
        self.events = out
        self.policy = policy
    }

    /// Decodes an NDJSON text.
    public init(text: String, policy: Policy = Policy()) throws {
        try self.init(text.split(separator: "\n").map(String.init), policy: policy)
    }

    /// The engine of `device` with every event dated at or before `time` applied (or, with
    /// `knownAt`, at or before that), advanced to `time`.
    public func engine(at time: String, device: String = "default", knownAt: String? = nil, without: Set<UInt64> = [])
        throws -> DeviceEngine
    {
        let t = try Timestamp(rfc3339: time).microseconds
        let limit = min(t, try knownAt.map { try Timestamp(rfc3339: $0).microseconds } ?? .max)
        var engine = DeviceEngine(device: device, policy: policy)
        engine.assume(layouts: layouts(device: device, knownBy: knownAt == nil ? .max : limit, without: without))
        for (seq, e) in ordered(device: device) where e.envelope.time.microseconds <= limit && !without.contains(seq) {
            engine.apply(e, seq: seq)
        }
        engine.advance(to: t)
        return engine
    }

    /// The state at `time`.
    public func state(at time: String, device: String = "default", knownAt: String? = nil, without: Set<UInt64> = [])
        throws -> DeviceSnapshot
    {
        let engine = try self.engine(at: time, device: device, knownAt: knownAt, without: without)
        return engine.snapshot(at: try Timestamp(rfc3339: time))
    }

    /// The stack `stack` at `time`.
    public func stack(_ stack: String, at time: String, device: String = "default", without: Set<UInt64> = []) throws
        -> StackSnapshot?
    {
        try state(at: time, device: device, without: without).stacks.first { $0.stack == stack }
    }

    /// Every decision up to `time`.
    public func decisions(through time: String, device: String = "default") throws -> [Decision] {
        let t = try Timestamp(rfc3339: time).microseconds
        var engine = DeviceEngine(device: device, policy: policy)
        engine.assume(layouts: layouts(device: device, knownBy: .max, without: []))
        var out = [Decision]()
        for (seq, e) in ordered(device: device) where e.envelope.time.microseconds <= t {
            engine.apply(e, seq: seq)
            out += engine.takeDecisions()
        }
        engine.advance(to: t)
        return out + engine.takeDecisions()
    }

    /// The device's observed layouts known by `knownBy` and not left out, as a fold from
    /// the start takes them (`Projector`).
    func layouts(device: String, knownBy: Int64, without: Set<UInt64>) -> [(seq: UInt64, event: Event)] {
        ordered(device: device).filter { seq, e in
            guard case .layoutObserved = e.body else { return false }
            return e.envelope.time.microseconds <= knownBy && !without.contains(seq)
        }.map { (seq: $0.0, event: $0.1) }
    }

    func ordered(device: String) -> [(UInt64, Event)] {
        events.filter { $0.event.envelope.device == device }
            .sorted { ($0.event.envelope.time.microseconds, $0.seq) < ($1.event.envelope.time.microseconds, $1.seq) }
            .map { ($0.seq, $0.event) }
    }
}

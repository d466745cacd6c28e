import Ledger
public import SmartStack

extension Projector {
    /// Walks `device` from `from` to `to`: calls `sample` with the engine at `from`, then
    /// every `every` microseconds up to `to`, and `decision` with every decision in
    /// `[from, to]`, all in time order.
    public func walk(
        device: String, from: Int64, to: Int64, every: Int64, query: ProjectionQuery = ProjectionQuery(),
        sample: (Int64, inout DeviceEngine) throws -> Void, decision: (Decision) throws -> Void
    ) throws {
        precondition(every > 0)
        var engine = try engine(device: device, justBefore: from, query: query)
        var t = from
        while true {
            try step(&engine, to: min(t, to), query: query, decision: decision)
            guard t <= to else { break }
            try sample(t, &engine)
            if t == to { break }
            t = t > to - every ? to + 1 : t + every
        }
    }

    /// Walks `device` through `[from, to]` change by change: calls `visit` with the engine
    /// at `from` and at every later instant up to `to` where its state can change (an event
    /// applies or a transition it scheduled runs), and `decision` with every decision in
    /// `[from, to]`, all in time order. Between two visits nothing changes, so spans built
    /// from the visits are exact. `start`: the engine just before `from`, when the caller
    /// has it (`ForwardFold`).
    public func walkChanges(
        device: String, from: Int64, to: Int64, query: ProjectionQuery = ProjectionQuery(), start: DeviceEngine? = nil,
        visit: (Int64, inout DeviceEngine) throws -> Void, decision: (Decision) throws -> Void
    ) throws {
        guard from <= to else { return }
        let stored = try ledger.read { try $0.timedSeqs(device: device, fromMicros: from + 1, toMicros: to + 1) }
        let added = query.with.filter { $0.envelope.device == device }.map(\.envelope.time.microseconds)
        let instants = Array(Set(stored.map(\.time) + added.filter { $0 > from && $0 <= to })).sorted()
        var engine = try start ?? engine(device: device, justBefore: from, query: query)
        var t = from
        var nextInstant = 0
        while true {
            try step(&engine, to: t, query: query, decision: decision)
            try visit(t, &engine)
            while nextInstant < instants.count && instants[nextInstant] <= t { nextInstant += 1 }
            let next = min(nextInstant < instants.count ? instants[nextInstant] : .max, engine.nextTransition ?? .max)
            guard next <= to else { break }
            t = next
        }
    }

    /// The engine with every event before `t` applied and its clock just before `t`; the
    /// decisions it made are dropped.
    func engine(device: String, justBefore t: Int64, query: ProjectionQuery) throws -> DeviceEngine {
        var engine = try fold(device: device, through: t - 1, query: query, collect: nil)
        engine.advance(to: t - 1)
        _ = engine.takeDecisions()
        return engine
    }

    /// Applies the events up to `t`, moves the clock to `t` and reports the decisions made,
    /// each as it is made (a step may span the whole log: its decisions are not held).
    func step(
        _ engine: inout DeviceEngine, to t: Int64, query: ProjectionQuery, decision: (Decision) throws -> Void
    ) throws {
        var failure: (any Error)?
        try withoutActuallyEscaping(decision) { decision in
            engine = try fold(device: engine.device, through: t, query: query, start: engine) { made in
                guard failure == nil else { return }
                do { try decision(made) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        engine.advance(to: t)
        for d in engine.takeDecisions() { try decision(d) }
    }
}

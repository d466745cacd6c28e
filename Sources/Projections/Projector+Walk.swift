public import SmartStack

extension Projector {
    /// Walks `device` from `from` to `to`: calls `sample` with the engine at `from`, then
    /// every `every` microseconds up to `to`, and `decision` with every decision in
    /// `[from, to]`, all in time order.
    public func walk(device: String, from: Int64, to: Int64, every: Int64, query: ProjectionQuery = ProjectionQuery(),
                     sample: (Int64, inout DeviceEngine) throws -> Void, decision: (Decision) throws -> Void) throws {
        precondition(every > 0)
        var engine = try fold(device: device, through: from - 1, query: query, collect: nil)
        engine.advance(to: from - 1)
        _ = engine.takeDecisions()
        var t = from
        while true {
            var made = [Decision]()
            engine = try fold(device: device, through: min(t, to), query: query, start: engine) { made.append($0) }
            engine.advance(to: min(t, to))
            made += engine.takeDecisions()
            for d in made { try decision(d) }
            guard t <= to else { break }
            try sample(t, &engine)
            if t == to { break }
            t = t > to - every ? to + 1 : t + every
        }
    }
}

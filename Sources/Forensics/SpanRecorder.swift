/// Turns states seen at change points into exact spans: a value seen at `t` holds until
/// the first later visit that shows another value or none.
package struct SpanRecorder<Key: Hashable & Comparable, Value: Equatable> {
    package struct Span {
        var key: Key
        var start: Int64
        var end: Int64
        var value: Value
    }

    private var open: [Key: (start: Int64, value: Value)] = [:]
    private(set) var closed: [Span] = []

    /// Records that at `t` exactly the keys of `current` are present, with those values.
    package mutating func visit(_ t: Int64, _ current: [Key: Value]) {
        for (key, span) in open where current[key] != span.value {
            closed.append(Span(key: key, start: span.start, end: t, value: span.value))
            open[key] = nil
        }
        for (key, value) in current where open[key] == nil { open[key] = (t, value) }
    }

    /// Every span, those still open ended at `t`, ordered by key and start.
    package mutating func finish(at t: Int64) -> [Span] {
        visit(t, [:])
        return closed.filter { $0.end > $0.start }.sorted { ($0.key, $0.start) < ($1.key, $1.start) }
    }
}

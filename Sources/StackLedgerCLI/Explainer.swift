import Ledger
import Projections
import SmartStack

/// Builds `why`'s answer: the top, the decision behind it, every candidate, the verdict on
/// one widget, and the device's own record of what was on screen.
struct Explainer {
    let projector: Projector
    let device: String

    struct Observation {
        var event: UInt64
        var time: Timestamp
        var stack: String? = nil
        var agrees: Bool
        var detail: String
    }

    struct Explanation {
        var at: Timestamp
        var stack: StackSnapshot
        var candidates: [CandidateExplanation]
        var verdict: WidgetVerdict?
        var observed: [Observation]
    }

    func explain(stack id: String, at t: Timestamp, widget: String?, query: ProjectionQuery) throws -> Explanation? {
        var engine = try projector.engine(device: device, at: t.microseconds, query: query)
        let local = Timestamp(microseconds: t.microseconds, offsetMinutes: engine.localOffset(at: t.microseconds))
        guard let snapshot = engine.snapshot(at: local).stacks.first(where: { $0.stack == id }) else { return nil }
        let candidates = engine.candidates(stack: id)
        var verdict: WidgetVerdict?
        if let widget {
            if try isUnknown(widget, query: query) {
                verdict = WidgetVerdict(query: widget, onTop: false, suggested: false, reasons: [
                    Reason("UNKNOWN_WIDGET", .documented, "S1", "no stored event names \(widget) (as an instance id or a kind)", events: []),
                ])
            } else {
                verdict = engine.verdict(stack: id, widget: widget)
            }
        }
        return Explanation(at: local, stack: snapshot, candidates: candidates, verdict: verdict,
                           observed: try observations(stack: id, at: t, query: query))
    }

    /// Whether no event in the whole log (or the `--with` events) names the widget.
    func isUnknown(_ widget: String, query: ProjectionQuery) throws -> Bool {
        let named = try projector.ledger.read { r in
            try r.hasIndexKey(IndexKey(namespace: Event.IndexNamespace.instance, value: widget))
                || r.hasIndexKey(IndexKey(namespace: Event.IndexNamespace.kind, value: widget))
        }
        if named { return false }
        return !query.with.contains { e in e.indexKeys.contains { $0.value == widget && ($0.namespace == Event.IndexNamespace.instance || $0.namespace == Event.IndexNamespace.kind) } }
    }

    /// The device's `stack.observed` events of the hour before `t` (at most five), each
    /// compared with the model's top at its time.
    func observations(stack id: String, at t: Timestamp, query: ProjectionQuery) throws -> [Observation] {
        Array(try observations(stack: id, from: t.microseconds - 3_600_000_000, to: t.microseconds, query: query, limit: 5))
    }

    /// The device's `stack.observed` events in `[from, to]` (the last `limit`), each
    /// compared with the model's top at its time; `stack` nil takes every stack.
    func observations(stack id: String?, from: Int64, to: Int64, query: ProjectionQuery, limit: Int = .max) throws -> [Observation] {
        var found = [(UInt64, Event)]()
        try projector.ledger.read { r in
            for seq in try r.seqs(device: device, fromMicros: from, toMicros: to + 1) {
                try r.withRecord(seq) { view in
                    guard view.envelope.type == "stack.observed" else { return }
                    let e = try Event(record: view)
                    // A widget the device saw outside any stack (PowerLog's isInStack = 0)
                    // says nothing about a stack's top.
                    if e.extras.contains(where: { $0.key == "inStack" && $0.value == .bool(false) }) { return }
                    if case .stackObserved(let o) = e.body, id == nil || o.stack == nil || o.stack == id { found.append((seq, e)) }
                }
            }
        }
        var out = [Observation]()
        for (seq, e) in found.suffix(limit) {
            guard case .stackObserved(let o) = e.body else { continue }
            var engine = try projector.engine(device: device, at: e.envelope.time.microseconds, query: query)
            let stacks = engine.snapshot(at: e.envelope.time).stacks
            // The observed widget: by instance, or by kind and (when recorded) app.
            let app = e.envelope.app
            let isObserved = { (w: WidgetIdentity) in w.instance == o.instance || (w.kind == o.kind && (app == nil || w.app == app)) }
            let stackID = o.stack ?? id ?? stacks.first { $0.widgets.contains { isObserved($0.widget) } }?.stack
            let top = stacks.first { $0.stack == stackID }?.top?.widget
            let named = o.instance ?? o.kind ?? "?"
            let matches = top.map(isObserved) ?? false
            let agrees = o.onScreen ? matches : !matches
            let detail = "the device recorded \(named) \(o.onScreen ? "on screen" : "off screen"); the model has \(top.map { "\($0.kind) (\($0.instance))" } ?? "nothing") on top"
            out.append(Observation(event: seq, time: e.envelope.time, stack: stackID, agrees: agrees, detail: detail))
        }
        return out
    }
}

package import Ledger
package import Projections
import SmartStack

extension Explainer {
    /// The share of an observation's duration for which the model must have had the
    /// observed widget on top (or, for `onScreen: false`, not on top) to agree with it.
    package static let agreementShare = 0.5

    /// The device's `stack.observed` and `stack.rotated` events of the hour before `t` (at
    /// most five), each compared with the model.
    package func observations(stack id: String, at t: Timestamp, query: ProjectionQuery) throws -> [Observation] {
        Array(
            try observations(
                stack: id, from: t.microseconds - 3_600_000_000, to: t.microseconds, query: query, limit: 5))
    }

    /// The device's `stack.observed` and `stack.rotated` events in `[from, to]` (the last
    /// `limit`), each compared with the model; `stack` nil takes every stack.
    ///
    /// An observation without `duration` is compared with the model's top at its instant.
    /// One with `duration` D covers the D seconds up to its time (PowerLog writes its
    /// on-screen totals when the period ends): the model agrees when it had the widget on
    /// top for at least `agreementShare` of them (for `onScreen: false`, off top).
    package func observations(stack id: String?, from: Int64, to: Int64, query: ProjectionQuery, limit: Int = .max)
        throws
        -> [Observation]
    {
        var found = [(UInt64, Event)]()
        try projector.ledger.read { r in
            // The device's records in the interval, walked by type alone; the few that are
            // records of the device's own are then read whole, with their provenance.
            var recorded = [UInt64]()
            try r.forEachRecord(
                device: device, after: from == .min ? nil : (from - 1, .max), throughMicros: to, identities: false
            ) { view in
                let type = view.envelope.type
                if type == EventType.stackRotated.rawValue || type == EventType.stackObserved.rawValue
                    || type == EventType.widgetTapped.rawValue || type == EventType.layoutObserved.rawValue
                {
                    recorded.append(view.seq)
                }
                return true
            }
            for seq in recorded {
                try r.withRecord(seq) { view in
                    if view.envelope.type == EventType.stackRotated.rawValue {
                        let e = try Event(record: view)
                        if case .stackRotated(let rotated) = e.body,
                            id == nil || rotated.stack == nil || rotated.stack == id
                        {
                            found.append((seq, e))
                        }
                        return
                    }
                    if view.envelope.type == EventType.layoutObserved.rawValue {
                        // A recorded selection in a stack with Smart Rotate off names its top.
                        let e = try Event(record: view)
                        if case .layoutObserved(let layout) = e.body,
                            layout.stacks.contains(where: { Self.namesTop($0) && (id == nil || $0.stack == id) })
                        {
                            found.append((seq, e))
                        }
                        return
                    }
                    if view.envelope.type == EventType.widgetTapped.rawValue {
                        // A tap the device recorded (an imported record, not an app's or a
                        // person's event) names the widget shown at its instant.
                        guard view.envelope.source != nil else { return }
                        let e = try Event(record: view)
                        if case .widgetTapped(let tap) = e.body, id == nil || tap.stack == nil || tap.stack == id {
                            found.append((seq, e))
                        }
                        return
                    }
                    guard view.envelope.type == EventType.stackObserved.rawValue else { return }
                    let e = try Event(record: view)
                    // A widget the device saw outside any stack (PowerLog's isInStack = 0)
                    // says nothing about a stack's top.
                    if e.extras.contains(where: { $0.key == "inStack" && $0.value == .bool(false) }) { return }
                    if case .stackObserved(let o) = e.body, id == nil || o.stack == nil || o.stack == id {
                        found.append((seq, e))
                    }
                }
            }
        }
        // The records, in time order, judged from one fold carried forward (unless the
        // caller brought one): each from the last, not each from a checkpoint of its own.
        let judge = forward == nil ? Explainer(forward: ForwardFold(projector: projector, device: device)) : self
        return try found.suffix(limit).flatMap { seq, e in
            if case .layoutObserved(let layout) = e.body {
                return try layout.stacks.filter { Self.namesTop($0) && (id == nil || $0.stack == id) }.map {
                    try judge.compareSelection(e, $0, seq: seq, query: query)
                }
            }
            return try judge.compare(e, seq: seq, stack: id, query: query).map { [$0] } ?? []
        }
    }

    /// Whether a recorded layout's stack names its top: a selection, with Smart Rotate
    /// recorded off (docs/events.md, "Observed layouts").
    static func namesTop(_ stack: ObservedStack) -> Bool { stack.selected != nil && stack.smartRotate == false }

    /// A recorded selection judged like a record of scope `top` at the layout's time,
    /// against the model's top without the layout (which would otherwise put it there).
    private func compareSelection(_ e: Event, _ observed: ObservedStack, seq: UInt64, query: ProjectionQuery) throws
        -> Observation
    {
        let time = e.envelope.time
        var without = query
        without.without.insert(seq)
        let engine = try projector.engine(device: device, at: time.microseconds, query: without)
        let selected = observed.members.first { $0.instance == observed.selected }
        let named = selected.map { "\($0.kind) (\($0.instance))" } ?? (observed.selected ?? "?")
        let recorded =
            "the device recorded \(named) as the member the person selected in \(observed.stack), whose Smart Rotate is off"
        guard let stack = engine.snapshot(at: time).stacks.first(where: { $0.stack == observed.stack }) else {
            return Observation(
                event: seq, time: time, stack: observed.stack, agrees: false,
                detail: "\(recorded): without this record \(Observation.Cause.noStack.text)", unjudged: .noStack)
        }
        let top = stack.top?.widget
        let name = RecordedWidgetName(
            instance: selected?.instance, bundles: [selected?.extensionBundle, selected?.app].compactMap { $0 },
            kind: selected?.kind)
        let match = name.match(
            in: stack.widgets.map {
                MatchCandidate(
                    instance: $0.widget.instance, app: $0.widget.app, extensionBundle: $0.extensionBundle,
                    kind: $0.widget.kind)
            })
        let agrees = match.index.map { stack.widgets[$0].widget.instance == top?.instance } ?? false
        return Observation(
            event: seq, time: time, stack: observed.stack, agrees: agrees,
            detail:
                "\(recorded); without this record the model has \(top.map { "\($0.kind) (\($0.instance))" } ?? "nothing") on top",
            matchedBy: match.basis)
    }

    /// How far from a recorded rotation the model's own rotation to the same widget may be
    /// and still agree with it.
    package static let rotationAgreementMicros: Int64 = 300_000_000

    /// A `stack.rotated` compared with the model: it agrees when the model rotated its
    /// stack to the same widget within `rotationAgreementMicros` of the record, or had it
    /// on top at the record's time.
    private func compareRotation(
        _ e: Event, _ rotated: StackRotated, seq: UInt64, stack id: String?, query: ProjectionQuery
    )
        throws -> Observation
    {
        let instant = e.envelope.time.microseconds
        let window = Self.rotationAgreementMicros
        // The engine at the record and the model's decisions around it, from one fold.
        let (decisions, engine) = try projector.decisions(
            device: device, from: instant - window, to: instant + window, engineAt: instant, query: query,
            start: forwardStart(justBefore: instant - window, query: query))
        let stacks = engine.snapshot(at: e.envelope.time).stacks.filter {
            rotated.stack == nil || $0.stack == rotated.stack
        }
        let shown = stacks.flatMap { stack in stack.widgets.map { (stack.stack, $0) } }
        let name = RecordedWidgetName(
            instance: rotated.instance, bundles: [rotated.extensionBundle, e.envelope.app].compactMap { $0 },
            kind: rotated.kind)
        let match = name.match(
            in: shown.map {
                MatchCandidate(
                    instance: $0.1.widget.instance, app: $0.1.widget.app, extensionBundle: $0.1.extensionBundle,
                    kind: $0.1.widget.kind)
            })
        let named = rotated.instance ?? rotated.kind ?? "?"
        guard let index = match.index else {
            let cause =
                match == .ambiguous ? Observation.Cause.ambiguous : shown.isEmpty ? .noStack : .noMatchingWidget
            return Observation(
                event: seq, time: e.envelope.time, stack: rotated.stack ?? id, agrees: false,
                detail: "the device recorded a rotation to \(named): \(cause.text)", unjudged: cause)
        }
        let (stackID, widget) = (shown[index].0, shown[index].1.widget)
        let rotations = decisions.filter {
            $0.stack == stackID && $0.action == .rotate && $0.widget.instance == widget.instance
        }
        let onTop = stacks.first { $0.stack == stackID }?.top?.widget.instance == widget.instance
        let criterion =
            rotated.criterion.map { " (criterion \($0)\(rotated.staleness == true ? ", a staleness rotation" : ""))" }
            ?? ""
        let recorded = "the device recorded a Smart Rotate to \(widget.kind) (\(widget.instance))\(criterion)"
        let detail: String
        if let nearest = rotations.min(by: { abs($0.time.microseconds - instant) < abs($1.time.microseconds - instant) }
        ) {
            detail = "\(recorded); the model rotated to it at \(nearest.time.rfc3339)"
        } else if onTop {
            detail = "\(recorded); the model already had it on top"
        } else {
            detail =
                "\(recorded); the model did not rotate to it within \(window / 60_000_000) min and had \(stacks.first { $0.stack == stackID }?.top.map { "\($0.widget.kind) (\($0.widget.instance))" } ?? "nothing") on top"
        }
        return Observation(
            event: seq, time: e.envelope.time, stack: stackID, agrees: !rotations.isEmpty || onTop, detail: detail,
            matchedBy: match.basis)
    }

    /// What a record of the device's own says about one widget, whatever its type.
    struct ShownRecord {
        var stack: String?
        var instance: String?
        var kind: String?
        var onScreen: Bool
        var duration: Double?
        var scope: StackObserved.Scope
        /// How the report names what the device recorded (`on screen`, `tapped`).
        var verb: String

        /// A `stack.observed`, or a tap the device recorded; nil for other events.
        init?(_ event: Event) {
            switch event.body {
            case .stackObserved(let o):
                (stack, instance, kind, onScreen, duration) = (o.stack, o.instance, o.kind, o.onScreen, o.duration)
                scope = Self.scope(of: o, event)
                verb = o.onScreen ? "on screen" : "off screen"
            case .widgetTapped(let tap):
                (stack, instance, kind, onScreen, duration) = (tap.stack, tap.instance, tap.kind, true, nil)
                scope = .top
                verb = "tapped"
            default:
                return nil
            }
        }

        /// The record's scope; records stored before `scope` existed are of scope `stack`
        /// when they say the widget was in a stack (PowerLog's `inStack`).
        static func scope(of o: StackObserved, _ event: Event) -> StackObserved.Scope {
            if let scope = o.scope { return scope }
            return event.extras.contains { $0.key == "inStack" && $0.value == .bool(true) } ? .stack : .top
        }
    }

    /// One observation compared with the model.
    private func compare(_ event: Event, seq: UInt64, stack id: String?, query: ProjectionQuery) throws -> Observation?
    {
        if case .stackRotated(let rotated) = event.body {
            return try compareRotation(event, rotated, seq: seq, stack: id, query: query)
        }
        guard let observed = ShownRecord(event) else { return nil }
        let instant = event.envelope.time.microseconds
        let time = event.envelope.time
        // The observed widget, found among the model's widgets at the record's instant by
        // the documented rule (docs/events.md, "Matching the device's names to widgets").
        let engine = try engine(at: instant, query: query)
        let atInstant = engine.snapshot(at: time).stacks.filter { observed.stack == nil || $0.stack == observed.stack }
        let shown = atInstant.flatMap { stack in stack.widgets.map { (stack.stack, $0) } }
        let name = RecordedWidgetName(
            instance: observed.instance ?? Self.extra("widgetIdentifier", of: event),
            bundles: [Self.extra("extension", of: event), event.envelope.app].compactMap { $0 }, kind: observed.kind)
        let match = name.match(
            in: shown.map {
                MatchCandidate(
                    instance: $0.1.widget.instance, app: $0.1.widget.app, extensionBundle: $0.1.extensionBundle,
                    kind: $0.1.widget.kind)
            })
        let scope = observed.scope
        let recordedName = observed.instance ?? observed.kind ?? "?"
        guard let index = match.index else {
            let cause =
                match == .ambiguous ? Observation.Cause.ambiguous : shown.isEmpty ? .noStack : .noMatchingWidget
            if scope == .stack && cause == .noMatchingWidget {
                // The model has stacks, and none holds such a widget: the layout differs.
                return Observation(
                    event: seq, time: time, stack: observed.stack ?? id, agrees: false,
                    detail:
                        "the device recorded the stack holding \(recordedName) on screen; \(cause.text), so the model's layout differs",
                    scope: .stack)
            }
            return Observation(
                event: seq, time: time, stack: observed.stack ?? id, agrees: false,
                detail: "the device recorded \(recordedName): \(cause.text)", unjudged: cause, scope: scope)
        }
        let stackID = shown[index].0
        let matched = shown[index].1.widget
        let named = "\(matched.kind) (\(matched.instance))"
        if try isInferredFrom(event, stack: atInstant.first { $0.stack == stackID }) {
            return Observation(
                event: seq, time: time, stack: stackID, agrees: false,
                detail: "the device recorded \(named): \(Observation.Cause.inferredFrom.text)", unjudged: .inferredFrom,
                scope: scope)
        }
        let span = EventLimits.micros(observed.duration ?? 0)
        if scope == .stack {
            return try compareStackScope(
                event, seq: seq, named: named, stack: stackID, span: span, matchedBy: match.basis, query: query)
        }
        let isObserved = { (w: WidgetIdentity) in w.instance == matched.instance }
        let recorded = "the device recorded \(named) \(observed.verb)"
        guard span > 0 else {
            let top = atInstant.first { $0.stack == stackID }?.top?.widget
            let matches = top.map(isObserved) ?? false
            let detail = "\(recorded); the model has \(top.map { "\($0.kind) (\($0.instance))" } ?? "nothing") on top"
            return Observation(
                event: seq, time: time, stack: stackID, agrees: observed.onScreen == matches, detail: detail,
                matchedBy: match.basis)
        }
        let onTop = try timeOnTop(stack: stackID, from: instant - span, to: instant, query: query, isObserved)
        let share = Double(onTop) / Double(span)
        let agrees = (observed.onScreen ? share : 1 - share) >= Self.agreementShare
        let detail =
            "\(recorded) for \(seconds(span)) s up to \(time.rfc3339); the model had it on top for \(seconds(onTop)) s of them (\(Int((share * 100).rounded())) %)"
        return Observation(
            event: seq, time: time, stack: stackID, agrees: agrees, detail: detail, matchedBy: match.basis)
    }

    /// A record of scope `stack` judged against the layout alone: `consistent` when the
    /// model holds the widget in the stack for at least `agreementShare` of the record's
    /// span (at its instant, without one), `layout differs` when it does not. It never
    /// agrees or disagrees about the top.
    private func compareStackScope(
        _ event: Event, seq: UInt64, named: String, stack: String, span: Int64, matchedBy: MatchBasis?,
        query: ProjectionQuery
    ) throws -> Observation {
        let time = event.envelope.time
        let what =
            "the device recorded the stack \(stack), which holds \(named), on screen\(span > 0 ? " for \(seconds(span)) s" : ""); the record cannot say which member was on top"
        guard span > 0 else {
            return Observation(
                event: seq, time: time, stack: stack, agrees: true, detail: "\(what); the model holds it in the stack",
                matchedBy: matchedBy, scope: .stack)
        }
        let instant = time.microseconds
        let held = try timeHeld(stack: stack, named: named, from: instant - span, to: instant, query: query)
        let share = Double(held) / Double(span)
        let consistent = share >= Self.agreementShare
        return Observation(
            event: seq, time: time, stack: stack, agrees: consistent,
            detail:
                "\(what); the model holds it in the stack for \(seconds(held)) s of them (\(Int((share * 100).rounded())) %)",
            matchedBy: matchedBy, scope: .stack)
    }

    /// Microseconds in `[from, to]` during which the model held the widget `named`
    /// (`kind (instance)`) in `stack`, exact at every change.
    private func timeHeld(stack: String, named: String, from: Int64, to: Int64, query: ProjectionQuery) throws
        -> Int64
    {
        try timeWhile(stack: stack, from: from, to: to, query: query) { snapshot in
            snapshot?.widgets.contains { "\($0.widget.kind) (\($0.widget.instance))" == named } ?? false
        }
    }

    /// Microseconds in `[from, to]` during which the model had a widget that `matches` on
    /// top of `stack`, exact at every change.
    private func timeOnTop(
        stack: String?, from: Int64, to: Int64, query: ProjectionQuery, _ matches: (WidgetIdentity) -> Bool
    ) throws -> Int64 {
        try timeWhile(stack: stack, from: from, to: to, query: query) { snapshot in
            snapshot?.top.map { matches($0.widget) } ?? false
        }
    }

    /// Microseconds in `[from, to]` during which `holds` is true of the model's `stack`
    /// (nil when the model has no such stack), exact at every change.
    private func timeWhile(
        stack: String?, from: Int64, to: Int64, query: ProjectionQuery, _ holds: (StackSnapshot?) -> Bool
    ) throws -> Int64 {
        var total: Int64 = 0
        var since: Int64?
        try projector.walkChanges(
            device: device, from: from, to: to, query: query, start: forwardStart(justBefore: from, query: query),
            visit: { t, engine in
                let now = holds(engine.snapshot(at: Timestamp(microseconds: t)).stacks.first { $0.stack == stack })
                if let start = since, !now {
                    total += t - start
                    since = nil
                }
                if now && since == nil { since = t }
            }, decision: { _ in })
        if let start = since { total += to - start }
        return total
    }

    /// Whether `e` comes from the artifact whose rows the stack's inferred layout was made
    /// from (`LAYOUT_INFERRED`): such records are not judged against it.
    private func isInferredFrom(_ e: Event, stack: StackSnapshot?) throws -> Bool {
        guard let artifact = e.envelope.source?.artifact,
            let layoutSeq = stack?.assumptions.first(where: { $0.code == AssumptionCode.layoutInferred.rawValue })?
                .events.first
        else { return false }
        return try projector.ledger.read { r in
            try r.withRecord(layoutSeq) { $0.envelope.source?.artifact == artifact } ?? false
        }
    }

    /// A string member of the event's unknown fields (`widgetIdentifier`, `extension`).
    static func extra(_ key: String, of e: Event) -> String? {
        for member in e.extras where member.key == key {
            if case .string(let s) = member.value, !s.isEmpty { return s }
        }
        return nil
    }

    private func seconds(_ micros: Int64) -> String {
        micros % 1_000_000 == 0 ? String(micros / 1_000_000) : String(Double(micros) / 1_000_000)
    }
}

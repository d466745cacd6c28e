package import Ledger
package import Projections
package import SmartStack

/// Builds `why`'s answer: the top, the decision behind it, every candidate, the verdict on
/// one widget, and the device's own record of what was on screen.
package struct Explainer {
    package let projector: Projector
    package let device: String
    /// A fold carried forward, for records judged in time order (calibration); nil: every
    /// question folds from the projector's checkpoints.
    package var forward: ForwardFold?

    /// Explains what the engine decided on `device`, folding through `projector`.
    package init(projector: Projector, device: String) {
        self.projector = projector
        self.device = device
    }

    /// Judges records through `forward`, a fold carried forward through time.
    package init(forward: ForwardFold) {
        self.projector = forward.projector
        self.device = forward.device
        self.forward = forward
    }

    /// The engine at `t` for the query's view: from the forward fold when it can answer.
    func engine(at t: Int64, query: ProjectionQuery) throws -> DeviceEngine {
        try forward?.engine(at: t, query: query) ?? projector.engine(device: device, at: t, query: query)
    }

    /// The engine just before `t`, when the forward fold can give it.
    func forwardStart(justBefore t: Int64, query: ProjectionQuery) throws -> DeviceEngine? {
        try forward?.engine(justBefore: t, query: query)
    }

    /// A record of the device (`stack.observed`) compared with the model.
    package struct Observation {
        package var event: UInt64
        package var time: Timestamp
        package var stack: String? = nil
        /// For a record of scope `top`, whether the model agrees with it; for one of scope
        /// `stack`, whether the model's layout is consistent with it.
        package var agrees: Bool
        package var detail: String
        /// Why the model could not judge it, when it could not; such a record is counted
        /// apart, never as an agreement or a disagreement.
        package var unjudged: Cause? = nil
        /// How the record's names were matched to the model's widget, when they were.
        package var matchedBy: MatchBasis? = nil
        /// What the record can tell: which widget was shown (`top`), or only that the
        /// stack holding it was on screen (`stack`), judged against the layout alone.
        package var scope: StackObserved.Scope = .top

        /// The judgement as reports name it: `agrees` or `disagrees` (a record of scope
        /// `top`), `consistent` or `layout differs` (scope `stack`), or `not judged: CAUSE`.
        package var judgement: String {
            if let unjudged { return "not judged: \(unjudged.text)" }
            switch scope {
            case .top: return agrees ? "agrees" : "disagrees"
            case .stack: return agrees ? "consistent" : "layout differs"
            }
        }

        /// Whether the record was judged about the top and the model disagrees with it.
        package var disagrees: Bool { unjudged == nil && scope == .top && !agrees }

        /// Whether the record was judged about the top (it agrees or disagrees).
        package var judgedOnTop: Bool { unjudged == nil && scope == .top }

        /// Why an observation could not be judged.
        package enum Cause: String, CaseIterable, Sendable {
            /// The model has no stack at the record's time.
            case noStack = "the model has no stack then"
            /// No widget of the model's stacks fits the record's names.
            case noMatchingWidget = "no widget of the model's stacks matches its names"
            /// More than one widget fits: never guessed.
            case ambiguous = "more than one widget of the model's stacks matches its names"
            /// The record was one of those the layout it would be judged against was
            /// inferred from: judging it would be circular.
            case inferredFrom = "the layout it would be judged against was inferred from the same records"

            package var text: String { rawValue }
        }
    }

    package struct Explanation {
        package var at: Timestamp
        package var stack: StackSnapshot
        package var candidates: [CandidateExplanation]
        package var verdict: WidgetVerdict?
        package var observed: [Observation]
    }

    package func explain(stack id: String, at t: Timestamp, widget: String?, query: ProjectionQuery) throws
        -> Explanation?
    {
        let engine = try engine(at: t.microseconds, query: query)
        let local = Timestamp(microseconds: t.microseconds, offsetMinutes: engine.localOffset(at: t.microseconds))
        guard let snapshot = engine.snapshot(at: local).stacks.first(where: { $0.stack == id }) else { return nil }
        let candidates = engine.candidates(stack: id)
        var verdict: WidgetVerdict?
        if let widget {
            if try isUnknown(widget, query: query) {
                verdict = WidgetVerdict(
                    query: widget, onTop: false, suggested: false,
                    reasons: [
                        Reason(
                            .unknownWidget, .documented, "S1",
                            "no stored event names \(widget) (as an instance id or a kind)", events: [])
                    ])
            } else {
                verdict = engine.verdict(stack: id, widget: widget)
            }
        }
        return Explanation(
            at: local, stack: snapshot, candidates: candidates, verdict: verdict,
            observed: try observations(stack: id, at: t, query: query))
    }

    /// Whether no event in the whole log (or the `--with` events) names the widget.
    package func isUnknown(_ widget: String, query: ProjectionQuery) throws -> Bool {
        let named = try projector.ledger.read { r in
            try r.hasIndexKey(IndexKey(namespace: Event.IndexNamespace.instance, value: widget))
                || r.hasIndexKey(IndexKey(namespace: Event.IndexNamespace.kind, value: widget))
        }
        if named { return false }
        return !query.with.contains { e in
            e.indexKeys.contains {
                $0.value == widget
                    && ($0.namespace == Event.IndexNamespace.instance || $0.namespace == Event.IndexNamespace.kind)
            }
        }
    }
}

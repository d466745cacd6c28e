import RecordFormat

/// One candidate for a stack at an instant, as `why` lists it.
public struct CandidateExplanation: Sendable, Hashable {
    /// The widget.
    public var widget: WidgetIdentity
    /// The active relevance score, if the signal is one.
    public var score: Double?
    /// The normalised score, if the signal is a relevance score.
    public var normalized: Double?
    /// The rank the engine compares (relevance: the normalised score; others: the policy's rank).
    public var rank: Double?
    /// Whether it could be on top now.
    public var eligible: Bool
    /// Shown as a suggestion or card.
    public var suggested: Bool
    /// What makes it a candidate, or what blocks it.
    public var reasons: [Reason]
}

/// Why a widget is or is not on top, or suggested, in a stack at an instant.
public struct WidgetVerdict: Sendable, Hashable {
    /// The instance id or kind asked about.
    public var query: String
    /// Whether it is the top.
    public var onTop: Bool
    /// Whether it is shown as a suggestion or card.
    public var suggested: Bool
    /// What placed it first (when shown), then the first blocking reason in the
    /// documented order, then every other that also applies.
    public var reasons: [Reason]

    /// Creates a verdict.
    public init(query: String, onTop: Bool, suggested: Bool, reasons: [Reason]) {
        self.query = query
        self.onTop = onTop
        self.suggested = suggested
        self.reasons = reasons
    }
}

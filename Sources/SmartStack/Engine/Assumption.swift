/// The assumptions an answer can rest on (`docs/queries.md`, "Assumptions"): something
/// the log does not record for the instant asked about.
public enum AssumptionCode: String, CaseIterable, Sendable {
    /// The stack's layout at T is taken from a `stack.layoutObserved` whose time is after T.
    case layoutAssumed = "LAYOUT_ASSUMED"
    /// The layout comes from an inferred observation.
    case layoutInferred = "LAYOUT_INFERRED"
    /// An observation contradicted the stack that explicit events had built.
    case layoutConflict = "LAYOUT_CONFLICT"
    /// A switch the observation did not record keeps its earlier (or default) value.
    case settingsAssumed = "SETTINGS_ASSUMED"
    /// The layout's time comes from a file time that the extraction does not keep exactly.
    case layoutTimeUncertain = "LAYOUT_TIME_UNCERTAIN"
    /// A widget's relevance comes from the device's record, not the app's timeline.
    case relevanceFromDeviceRecord = "RELEVANCE_FROM_DEVICE_RECORD"
    /// The stack's top is the member a later recorded layout names as the person's selection.
    case topAssumed = "TOP_ASSUMED"
}

/// One assumption behind an answer, with the stored events it comes from.
public struct Assumption: Hashable, Sendable, Comparable {
    /// The assumption's code (`AssumptionCode`).
    public var code: String
    /// The stack it concerns.
    public var stack: String
    /// The widget instance it concerns, nil when it concerns the whole stack.
    public var instance: String?
    /// Sequence numbers of the events it comes from, ascending.
    public var events: [UInt64]
    /// A sentence a person can follow.
    public var detail: String

    /// Creates an assumption.
    public init(_ code: AssumptionCode, stack: String, instance: String? = nil, events: [UInt64], detail: String) {
        self.init(code: code.rawValue, stack: stack, instance: instance, events: events, detail: detail)
    }

    init(code: String, stack: String, instance: String?, events: [UInt64], detail: String) {
        self.code = code
        self.stack = stack
        self.instance = instance
        self.events = Array(Set(events)).sorted()
        self.detail = detail
    }

    /// Ordered by code, stack, instance (an absent instance first), as answers list them.
    public static func < (a: Assumption, b: Assumption) -> Bool {
        (a.code, a.stack, a.instance ?? "", a.detail) < (b.code, b.stack, b.instance ?? "", b.detail)
    }
}

extension Assumption {
    /// `RELEVANCE_FROM_DEVICE_RECORD` for a widget whose active relevance comes from a
    /// `widget.relevanceObserved`.
    static func relevanceFromDeviceRecord(stack: String, widget: WidgetIdentity, relevance: ActiveRelevance)
        -> Assumption
    {
        Assumption(
            .relevanceFromDeviceRecord, stack: stack, instance: widget.instance, events: [relevance.event],
            detail:
                "\(widget.kind)'s relevance is the device's own record of it, not the app's timeline: the record names the kind, and the model takes it for every widget of that kind"
        )
    }
}

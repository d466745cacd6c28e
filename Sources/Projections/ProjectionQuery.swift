public import Ledger
public import SmartStack

/// What to replay: the whole log, or a view of it.
public struct ProjectionQuery: Sendable {
    /// `--known-at`: only events whose time is at or before this instant count.
    public var knownAt: Timestamp?
    /// `--as-recorded-at`: only the longest prefix of the log recorded by this instant counts.
    public var asRecordedAt: Timestamp?
    /// `--without`: sequence numbers of stored events to leave out.
    public var without: Set<UInt64>
    /// `--with`: events to add as if they had been recorded (nothing is stored).
    public var with: [Event]

    /// The whole log.
    public init(
        knownAt: Timestamp? = nil, asRecordedAt: Timestamp? = nil, without: Set<UInt64> = [], with: [Event] = []
    ) {
        self.knownAt = knownAt
        self.asRecordedAt = asRecordedAt
        self.without = without
        self.with = with
    }

    /// Whether the view is the stored log as it is (checkpoints apply and may be saved).
    var isWholeLog: Bool { asRecordedAt == nil && without.isEmpty && with.isEmpty }
}

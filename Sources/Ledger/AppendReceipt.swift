/// What one `append` stored.
public struct AppendReceipt: Sendable, Equatable {
    /// The first and last sequence numbers assigned, nil when nothing new was stored.
    public var firstSeq: UInt64?
    /// The last sequence number assigned.
    public var lastSeq: UInt64?
    /// How many events were stored.
    public var stored: Int
    /// How many were skipped because an identical event with the same id was stored.
    public var duplicates: Int
    /// The commit's recorded time.
    public var recordedAt: Timestamp

    /// Creates a receipt.
    public init(
        firstSeq: UInt64? = nil, lastSeq: UInt64? = nil, stored: Int = 0, duplicates: Int = 0, recordedAt: Timestamp
    ) {
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.stored = stored
        self.duplicates = duplicates
        self.recordedAt = recordedAt
    }
}

extension AppendReceipt {
    /// Counts one event: stored as `seq`, or skipped as a duplicate when nil.
    mutating func count(_ seq: UInt64?) {
        guard let seq else {
            duplicates += 1
            return
        }
        if firstSeq == nil { firstSeq = seq }
        lastSeq = seq
        stored += 1
    }

    /// Adds what a later part of the same commit stored.
    mutating func add(_ later: AppendReceipt) {
        if firstSeq == nil { firstSeq = later.firstSeq }
        if let last = later.lastSeq { lastSeq = last }
        stored += later.stored
        duplicates += later.duplicates
    }
}

/// The outcome of `Ledger.verify`: what was checked, the chain head, and the problems.
public struct VerifyReport: Sendable {
    /// One problem found, with the sequence number it concerns when there is one.
    public struct Problem: Sendable, CustomStringConvertible {
        /// The first sequence number the problem affects, if it concerns records.
        public var seq: UInt64?
        /// What is wrong.
        public var message: String
        public var description: String { seq.map { "seq \($0): \(message)" } ?? message }
    }

    /// Records checked.
    public var records = 0
    /// Batches (commits) checked.
    public var batches = 0
    /// Interned strings checked.
    public var strings = 0
    /// Index entries checked.
    public var indexEntries = 0
    /// The chain head stored in the store (what an examiner writes down).
    public var head: ChainHead?
    /// The chain head recomputed from the records.
    public var computedHead: ChainHead?
    /// Problems, in the order found (at most 100 kept).
    public var problems: [Problem] = []
    /// How many problems were found in all.
    public var problemCount = 0

    /// Whether every check passed.
    public var isIntact: Bool { problemCount == 0 }

    /// The smallest sequence number any problem names.
    public var firstBadSeq: UInt64? { problems.compactMap(\.seq).min() }

    mutating func report(_ seq: UInt64?, _ message: String) {
        problemCount += 1
        if problems.count < 100 { problems.append(Problem(seq: seq, message: message)) }
    }
}

/// The bytes of each day's usage records as the last state written held them, kept by a
/// series of checkpoints of one device (`CheckpointState.bytes(reusing:)`).
///
/// A state holds every donation and app use of the pattern window, most of its bytes, and
/// between two checkpoints only the last day or two of them change (and the oldest, as
/// records leave the window). Each day's records are written as a section of their own,
/// so that their bytes do not depend on the rest of the state: a day whose records are
/// the same as last time (the same hours, sequence numbers, times and deletions, which
/// is all a record is made from) is copied instead of written again.
public struct UsageDays: Sendable {
    private var kept: [Int64: (records: [Int64], bytes: [UInt8])] = [:]
    private var used: [Int64: (records: [Int64], bytes: [UInt8])] = [:]
    /// How many sections were copied rather than written (for tests).
    private(set) var copied = 0

    /// No bytes kept yet.
    public init() {}

    /// The section bytes of `day`, whose records `records` describes (hour, seq, time and
    /// deletion of each, in the order written); `write` makes them when they changed.
    mutating func bytes(day: Int64, records: [Int64], write: () -> [UInt8]) -> [UInt8] {
        if let last = kept[day], last.records == records {
            used[day] = last
            copied += 1
            return last.bytes
        }
        let bytes = write()
        used[day] = (records, bytes)
        return bytes
    }

    /// Ends a state: the days it did not write are dropped.
    mutating func endState() {
        kept = used
        used = [:]
    }
}

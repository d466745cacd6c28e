/// The bytes of each day's usage records as the last state written held them, kept by a
/// series of checkpoints of one device (`CheckpointState.bytes(reusing:)`).
///
/// A state holds every donation and app use of the pattern window, most of its bytes, and
/// between two checkpoints only the last day or two of them change (and the oldest, as
/// records leave the window). Each day's records are written as a section of their own,
/// so that their bytes do not depend on the rest of the state: a day the engine has not
/// edited since the last state (no record of it added, deleted or dropped: see
/// `UsageEdits.days`) is copied instead of written again, and `copies` says where such
/// sections sit in both states.
public struct UsageDays: Sendable {
    private struct Day {
        /// The engine's last edit of the day when it was written.
        var edit: UInt64
        var bytes: [UInt8]
        /// Where the section's bytes start in the state that wrote them.
        var offset: Int
    }
    private var kept: [Int64: Day] = [:]
    private var used: [Int64: Day] = [:]
    /// How many sections were copied rather than written (for tests).
    private(set) var copied = 0
    /// The sections of the last state written that are byte for byte those of the state
    /// written before it, in the order they sit in it.
    public private(set) var copies: [StateCopy] = []

    /// No bytes kept yet.
    public init() {}

    /// The section bytes of `day`, whose records the engine last edited at `edit`, and
    /// where the last state held the same bytes; `write` makes them when they changed.
    mutating func bytes(day: Int64, edit: UInt64, write: () -> [UInt8]) -> (bytes: [UInt8], from: Int?) {
        if let last = kept[day], last.edit == edit {
            used[day] = last
            copied += 1
            return (last.bytes, last.offset)
        }
        let bytes = write()
        used[day] = Day(edit: edit, bytes: bytes, offset: 0)
        return (bytes, nil)
    }

    /// Notes where `day`'s section was written in this state (`from`: where the last
    /// state held the same bytes, when they were copied).
    mutating func placed(day: Int64, at offset: Int, from: Int?) {
        used[day]!.offset = offset
        if let from { copies.append(StateCopy(at: offset, from: from, count: used[day]!.bytes.count)) }
    }

    /// Starts a state.
    mutating func beginState() {
        copies.removeAll(keepingCapacity: true)
    }

    /// Ends a state: the days it did not write are dropped.
    mutating func endState() {
        kept = used
        used = [:]
    }
}

/// A run of a state's bytes that is the same as a run of the state written before it.
public struct StateCopy: Sendable, Equatable {
    /// Where the run starts in the state.
    public var at: Int
    /// Where it starts in the state before.
    public var from: Int
    /// Its length in bytes.
    public var count: Int

    /// A run of `count` bytes at `at` that are those at `from` in the state before.
    public init(at: Int, from: Int, count: Int) {
        (self.at, self.from, self.count) = (at, from, count)
    }
}

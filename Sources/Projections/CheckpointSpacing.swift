/// When a fold's next checkpoint is due: once it has taken at least `interval` events
/// since the last one, and read enough of the log that the checkpoints' value bytes stay
/// within `share` of the log's bytes, each record counting the store's log bytes per event. A
/// device whose state is large against its events (many stacks, long usage histories)
/// gets its checkpoints farther apart, so that what they cost grows with the log, not
/// with the state times the events; summed over the devices, the checkpoints stay within
/// `share` of the whole log.
///
/// A checkpoint is paid for at the mean size of the last `window` made (a standalone one
/// and the copies after it, `CheckpointKey.keyframeInterval`), so that the checkpoints
/// stay evenly spaced in the log: a large standalone one does not leave a long stretch
/// without any. The rule reads only the log and the checkpoints made, never a clock: the
/// same log gives checkpoints at the same records, whichever thread encodes them.
struct CheckpointSpacing {
    /// Events between two checkpoints, at least.
    let interval: Int
    /// The most the checkpoints may take of the log's bytes (nil: by events alone).
    let share: Double?
    /// The store's log bytes per event (`Ledger.logBytesPerEvent`).
    let bytesPerEvent: Double
    /// Events taken since the last checkpoint.
    private(set) var events = 0
    /// Records read since the last checkpoint, taken or passed.
    private(set) var records = 0
    /// The value bytes of the last checkpoints made, at most `window`, oldest first.
    private var recent: [Int] = []
    private var recentTotal = 0
    let window = CheckpointKey.keyframeInterval

    init(interval: Int, share: Double?, bytesPerEvent: Double) {
        self.interval = interval
        self.share = share
        self.bytesPerEvent = bytesPerEvent
    }

    /// Counts one record read past without being taken.
    mutating func passed() { records += 1 }

    /// Counts one event taken; true when the next checkpoint is due by events alone, so
    /// that the bytes rule is to be asked (`due`).
    mutating func took() -> Bool {
        events += 1
        records += 1
        return events >= interval
    }

    /// Whether the next checkpoint is due.
    var due: Bool {
        guard events >= interval else { return false }
        guard let share, !recent.isEmpty else { return true }
        return Double(records) * bytesPerEvent * share * Double(recent.count) >= Double(recentTotal)
    }

    /// Starts counting again after a checkpoint.
    mutating func saved() {
        events = 0
        records = 0
    }

    /// Notes the value bytes of the last checkpoint made, once known.
    mutating func record(valueBytes: Int) {
        recent.append(valueBytes)
        recentTotal += valueBytes
        if recent.count > window { recentTotal -= recent.removeFirst() }
    }
}

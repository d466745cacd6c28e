import Foundation
import SmartStack
import Synchronization

/// The checkpoints one fold makes, in order: the first stands alone; the next ones copy
/// the runs they share with the one before from it (the days of usage records unchanged,
/// and what `StateDiff` finds), with a standalone one every
/// `CheckpointKey.keyframeInterval`.
struct CheckpointSeries {
    let device: String
    let tag: [UInt8]
    /// The length of the log the fold reads.
    let ceiling: UInt64
    private var made = 0
    private var previous: (time: Int64, seq: UInt64, state: [UInt8])?
    /// The bytes of each day's usage records in the last state, copied while unchanged.
    private var usageDays = UsageDays()

    init(device: String, tag: [UInt8], ceiling: UInt64) {
        self.device = device
        self.tag = tag
        self.ceiling = ceiling
    }

    /// The key and value of a checkpoint of `engine`, which stands at (time, seq).
    mutating func next(_ engine: DeviceEngine, time: Int64, seq: UInt64) -> (key: [UInt8], value: [UInt8]) {
        next(engine.checkpointState(), time: time, seq: seq)
    }

    /// The key and value of a checkpoint of an engine's `state` at (time, seq).
    mutating func next(_ state: CheckpointState, time: Int64, seq: UInt64) -> (key: [UInt8], value: [UInt8]) {
        let bytes = state.bytes(reusing: &usageDays)
        let base = made % CheckpointKey.keyframeInterval == 0 ? nil : previous
        let copies = base.map { StateDiff.copies(of: bytes, from: $0.state, keeping: usageDays.copies) } ?? []
        let entry = (
            CheckpointKey.key(device, tag, time: time, seq: seq),
            CheckpointValue.encode(highSeq: ceiling, state: bytes, base: base, copies: copies)
        )
        previous = (time, seq, bytes)
        made += 1
        return entry
    }
}

/// A checkpoint series encoded on a thread of its own, so that a fold with a core to
/// spare goes on while the states it hands over are written. At most
/// `inFlight` states wait; `take()` returns the entries made so far, in order.
///
/// - Note: `@unchecked Sendable`: `series`, the one mutable stored property not behind a
///   lock, is read and written only by blocks on the serial `queue`, one at a time; the
///   entries made go through the `made` mutex, and `slots` is a semaphore. The caller's
///   thread touches neither `series` nor anything else unsynchronised.
final class BackgroundCheckpoints: @unchecked Sendable {
    private var series: CheckpointSeries
    private let queue = DispatchQueue(label: "stackledger.checkpoints")
    private let slots: DispatchSemaphore
    private let made = Mutex<[(key: [UInt8], value: [UInt8])]>([])
    /// The value bytes of the last checkpoint encoded.
    private let lastValueBytes = Mutex<Int?>(nil)

    init(_ series: CheckpointSeries, inFlight: Int = 4) {
        self.series = series
        self.slots = DispatchSemaphore(value: inFlight)
    }

    /// Queues a checkpoint of `state` at (time, seq); waits while `inFlight` are queued.
    func add(_ state: CheckpointState, time: Int64, seq: UInt64) {
        slots.wait()
        queue.async {
            let entry = self.series.next(state, time: time, seq: seq)
            self.lastValueBytes.withLock { $0 = entry.value.count }
            self.made.withLock { $0.append(entry) }
            self.slots.signal()
        }
    }

    /// The value bytes of the last checkpoint queued, once it is encoded (waits for it);
    /// nil when none was.
    func lastSize() -> Int? {
        queue.sync {}
        return lastValueBytes.withLock { $0 }
    }

    /// The entries made since the last call; with `waiting`, after every queued one is.
    func take(waiting: Bool = false) -> [(key: [UInt8], value: [UInt8])] {
        if waiting { queue.sync {} }
        return made.withLock { made in
            defer { made.removeAll() }
            return made
        }
    }
}

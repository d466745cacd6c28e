import Dispatch
public import Ledger
public import SmartStack
import Synchronization

extension Projector {
    /// Replays every device from the start on `threads` threads (one device per thread at
    /// a time, the devices with the most events first), saving checkpoints as it goes,
    /// and returns how many events were folded. Once a thread finds no device left, the
    /// folds still running hand reading, decoding and checkpoints to threads of their own,
    /// so that the last long device does not leave a core idle. Checkpoints already
    /// stored for this policy are dropped first. `progress`, if given, is told the events
    /// folded so far, from the folding threads, after each stretch of a device.
    /// `checkpointShare` bounds the checkpoints' bytes against the log's (nil: none).
    public static func rebuild(
        ledger: Ledger, policy: Policy, threads: Int = 2, checkpointInterval: Int = Projector.defaultCheckpointInterval,
        checkpointShare: Double? = Projector.defaultCheckpointShare,
        progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> Int {
        let first = Projector(ledger: ledger, policy: policy)
        try first.prepare(reconciling: false)
        let names = try first.devices()
        if ledger.canWriteDerived { try first.dropCheckpoints(of: names) }
        let counts = try ledger.read { r in try names.map { try r.eventCount(device: $0) } }
        let devices = names.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.map {
            names[$0]
        }
        let workers = max(1, min(threads, devices.count))
        // Threads without a device left to fold; those beyond the devices are free from the start.
        let idle = Atomic<Int>(threads - workers)
        let next = Atomic<Int>(0)
        let folded = Atomic<Int>(0)
        let running = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let projector = Projector(ledger: ledger, policy: policy)
            (projector.checkpointInterval, projector.checkpointShare) = (checkpointInterval, checkpointShare)
            projector.prepared = true
            projector.privateStrings = true
            projector.backgroundCheckpoints = devices.count < threads
            projector.spareCore = { idle.load(ordering: .relaxed) > 0 }
            if let progress {
                // The records this thread's current fold had read when it last told.
                var told = 0
                projector.onFoldProgress = { _, records, done in
                    let total = running.wrappingAdd(records - told, ordering: .relaxed).newValue
                    told = done ? 0 : records
                    progress(total)
                }
            }
            while true {
                let deviceIndex = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard deviceIndex < devices.count, failure.withLock({ $0 == nil }) else {
                    idle.wrappingAdd(1, ordering: .relaxed)
                    return
                }
                do {
                    let engine = try projector.fold(
                        device: devices[deviceIndex], through: .max, query: ProjectionQuery(), collect: nil)
                    folded.wrappingAdd(engine.appliedEvents, ordering: .relaxed)
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return folded.load(ordering: .relaxed)
    }

    /// Bytes of this engine's and policy's checkpoints in the store, and how many there
    /// are (checkpoints of other policies or engine versions are not counted).
    public func checkpointFootprint() throws -> (bytes: Int, count: Int) {
        var bytes = 0
        var count = 0
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.root) { k, v in
                guard CheckpointKey.tag(ofKey: k, under: CheckpointKey.root)?.elementsEqual(tag) ?? false else {
                    return
                }
                bytes += k.count + v.count
                count += 1
            }
        }
        return (bytes, count)
    }
}

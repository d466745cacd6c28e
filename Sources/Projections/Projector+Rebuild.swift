import Dispatch
public import Ledger
public import SmartStack
import Synchronization

extension Projector {
    /// Replays every device from the start on `threads` threads (one device per thread at
    /// a time), saving checkpoints as it goes, and returns how many events were folded.
    /// Checkpoints already stored for this policy are dropped first.
    public static func rebuild(ledger: Ledger, policy: Policy, threads: Int = 2, checkpointInterval: Int = Projector.defaultCheckpointInterval) throws -> Int {
        let first = Projector(ledger: ledger, policy: policy)
        try first.prepare(reconciling: false)
        let devices = try first.devices()
        if ledger.canWriteDerived { try first.dropCheckpoints(of: devices) }
        let next = Atomic<Int>(0)
        let folded = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, devices.count))) { _ in
            let projector = Projector(ledger: ledger, policy: policy)
            projector.checkpointInterval = checkpointInterval
            projector.prepared = true
            projector.privateStrings = true
            projector.backgroundCheckpoints = devices.count < threads
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < devices.count, failure.withLock({ $0 == nil }) else { return }
                do {
                    let engine = try projector.fold(device: devices[i], through: .max, query: ProjectionQuery(), collect: nil)
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
        var bytes = 0, count = 0
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.root) { k, v in
                guard CheckpointKey.tag(ofKey: k, under: CheckpointKey.root)?.elementsEqual(tag) ?? false else { return }
                bytes += k.count + v.count
                count += 1
            }
        }
        return (bytes, count)
    }
}

import Ledger
import SmartStack

/// What a refold after late events found for one device.
struct Reconciliation {
    /// The checkpoints it made, before the one it converged on.
    var made: [(key: [UInt8], value: [UInt8])] = []
    /// The stale checkpoint whose state the refold reached, byte for byte; it and the
    /// checkpoints after it stay. Nil when none did within the refold's budget: every
    /// stale checkpoint goes, and the ones made (from the whole log) stay.
    var converged: (key: [UInt8], time: Int64, seq: UInt64, highSeq: UInt64, state: [UInt8])?
}

extension Projector {
    /// Events a refold after late events folds at most; past it, the stale checkpoints
    /// are dropped and queries fold on from the last one the refold made.
    static let reconcileBudget = 65_536
    /// Stale checkpoints dated after the late events that a refold compares at most
    /// (with checkpoints 224 events apart, the first ~10,700 events after them).
    static let reconcileComparisons = 48

    /// Refolds `device` over the log of `ceiling` records from its last checkpoint before
    /// the late events of `span`, making checkpoints as a fold does, and compares the
    /// state it reaches at each stale checkpoint dated after them with the state stored
    /// there. Equal bytes end it: the same state and the same events after it give the
    /// same states, so that checkpoint and the ones after it hold for the log with the
    /// late events. Nil when there is no stale checkpoint to meet or the store cannot be
    /// read.
    func reconcile(device: String, span: LateSpan, ceiling: UInt64) -> Reconciliation? {
        guard let latest = span.latest,
            let spacingFromStart = try? checkpointSpacing(saving: true, ceiling: ceiling)
        else { return nil }
        return try? read { reader -> Reconciliation? in
            var stale = [(key: [UInt8], time: Int64, seq: UInt64)]()
            let first = CheckpointKey.key(device, tag, time: latest &+ 1, seq: 0)
            try reader.derivedEntries(prefix: CheckpointKey.prefix(device, tag), from: first) { k, _ in
                let key = Array(k)
                if let at = CheckpointKey.position(key) { stale.append((key, at.time, at.seq)) }
                return stale.count < Projector.reconcileComparisons
            }
            guard !stale.isEmpty else { return nil }
            var engine = DeviceEngine(device: device, policy: policy)
            var position: (time: Int64, seq: UInt64)?
            if let (restored, at) = try checkpoint(device: device, atOrBefore: span.earliest - 1, ceiling: ceiling) {
                (engine, position) = (restored, at)
            } else {
                let layouts = try assumedLayouts(device: device, query: ProjectionQuery(), ceiling: ceiling)
                if !layouts.view.isEmpty { engine.assume(layouts: layouts.view) }
            }
            var out = Reconciliation()
            // The checkpoints it makes are written on a thread of their own.
            let made = BackgroundCheckpoints(CheckpointSeries(device: device, tag: tag, ceiling: ceiling))
            var spacing = spacingFromStart
            var sizeAwaited = false
            var folded = 0
            var next = 0
            var known: (key: [UInt8], state: [UInt8])?
            // The states compared are written as a series: a day's usage records unedited
            // since the last comparison are copied, not written again.
            var compared = UsageDays()
            try reader.forEachRecord(device: device, after: position, throughMicros: .max, identities: false) { view in
                guard view.seq <= ceiling else { return true }
                let (time, seq) = (view.envelope.time.microseconds, view.seq)
                engine.apply(try Event(record: view), seq: seq)
                _ = engine.takeDecisions()
                folded += 1
                while next < stale.count, (stale[next].time, stale[next].seq) < (time, seq) { next += 1 }
                if next < stale.count, stale[next].time == time, stale[next].seq == seq {
                    let candidate = stale[next]
                    next += 1
                    let state = engine.checkpointState().bytes(reusing: &compared)
                    if let stored = try reader.derived(candidate.key), let parsed = CheckpointValue(stored),
                        let old = try self.state(of: parsed, device: device, tag: tag, in: reader, known: known)
                    {
                        if old == state {
                            out.converged = (candidate.key, time, seq, parsed.highSeq, state)
                            return false
                        }
                        known = (candidate.key, old)
                    }
                    if next == stale.count { return false }
                }
                if spacing.took() {
                    // As every fold spaces them: the last one's size counts, once encoded.
                    if sizeAwaited, let size = made.lastSize() { spacing.record(valueBytes: size) }
                    sizeAwaited = false
                    if spacing.due {
                        spacing.saved()
                        made.add(engine.checkpointState(), time: time, seq: seq)
                        sizeAwaited = true
                    }
                }
                return folded < Projector.reconcileBudget
            }
            out.made = made.take(waiting: true)
            return out
        } ?? nil
    }
}

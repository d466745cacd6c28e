import Ledger
import SmartStack

extension Projector {
    /// The newest usable checkpoint of `device` at or before `limit`, made from a log no
    /// longer than `ceiling`; one that is not (made from a longer log, or its chain of
    /// deflated states broken) is passed over for the one before it.
    func checkpoint(device: String, atOrBefore limit: Int64, ceiling: UInt64) throws -> (DeviceEngine, (time: Int64, seq: UInt64))? {
        let prefix = CheckpointKey.prefix(device, tag)
        return try ledger.read { reader in
            var search = CheckpointKey.key(device, tag, time: limit, seq: .max)
            for _ in 0..<Projector.checkpointsTried {
                guard let (key, value) = try reader.derived(atOrBefore: search, prefix: prefix),
                      let at = CheckpointKey.position(key) else { return nil }
                if let parsed = CheckpointValue(value), parsed.highSeq <= ceiling,
                   let state = try state(of: parsed, device: device, tag: tag, in: reader),
                   let engine = try? DeviceEngine(checkpoint: state, policy: policy) {
                    return (engine, at)
                }
                guard at.seq > 0 else { return nil }
                search = CheckpointKey.key(device, tag, time: at.time, seq: at.seq - 1)
            }
            return nil
        }
    }

    /// How many checkpoints, newest first, a query tries before folding from the start.
    static let checkpointsTried = 64

    /// The engine state a checkpoint value holds: inflated after the states it was
    /// deflated against, starting from `known` (a checkpoint's key and its state) when the
    /// chain reaches it; nil when one of them is missing or damaged.
    func state(of value: CheckpointValue, device: String, tag: [UInt8], in reader: LedgerReader,
               known: (key: [UInt8], state: [UInt8])? = nil) throws -> [UInt8]? {
        var chain = [value]
        var state = [UInt8]()
        while let base = chain.last!.base {
            let key = CheckpointKey.key(device, tag, time: base.time, seq: base.seq)
            if let known, known.key == key {
                state = known.state
                break
            }
            guard chain.count <= 4 * CheckpointKey.keyframeInterval, let stored = try reader.derived(key),
                  let parsed = CheckpointValue(stored) else { return nil }
            chain.append(parsed)
        }
        for v in chain.reversed() {
            guard let inflated = Deflate.decompress(v.deflated, size: v.size, dictionary: state) else { return nil }
            state = inflated
        }
        return state
    }

    /// Saves checkpoints made from a log of `ceiling` records, unless a later invalidation
    /// has looked past that log (they could miss a late event).
    func store(_ entries: [([UInt8], [UInt8])], ceiling: UInt64) throws {
        try ledger.writeDerived { w in
            guard try w.mark("checkpoints") <= ceiling else { return }
            for (k, v) in entries { try w.put(k, v) }
        }
    }

    /// Drops the checkpoints that events recorded since the last look make stale: those
    /// dated at or after the earliest new event of their device.
    func prepare() throws {
        guard !prepared, useCheckpoints, ledger.canWriteDerived else { return }
        prepared = true
        let (mark, last, hasCheckpoints) = try ledger.read { reader -> (UInt64, UInt64, Bool) in
            (try reader.derivedMark("checkpoints"), try reader.lastSeq(), try reader.hasDerived(prefix: CheckpointKey.root))
        }
        guard last > mark else { return }
        var earliest = [String: Int64]()
        if hasCheckpoints {
            try ledger.read { reader in
                try reader.scan((mark + 1)...last) { view in
                    let d = view.envelope.device, t = view.envelope.time.microseconds
                    if t < earliest[d] ?? .max { earliest[d] = t }
                    return true
                }
            }
        }
        try ledger.writeDerived { w in
            for device in earliest.keys.sorted() {
                let from = earliest[device]!
                try w.delete(prefix: CheckpointKey.devicePrefix(device)) { key in
                    (CheckpointKey.position(key)?.time ?? .max) >= from
                }
            }
            try w.setMark("checkpoints", last)
        }
    }
}

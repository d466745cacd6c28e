import Ledger
import SmartStack

extension Projector {
    /// The newest usable checkpoint of `device` at or before `limit`, made from a log no
    /// longer than `ceiling` and serving a view of that length (see `CheckpointFloors`);
    /// one that is not (made from a longer log, below a floor, or its chain of states
    /// broken) is passed over for the one before it.
    func checkpoint(device: String, atOrBefore limit: Int64, ceiling: UInt64) throws -> (
        DeviceEngine, (time: Int64, seq: UInt64)
    )? {
        let prefix = CheckpointKey.prefix(device, tag)
        return try ledger.read { reader in
            let floors = CheckpointFloors(stored: try reader.derived(CheckpointFloors.key(device, tag)))
            var search = CheckpointKey.key(device, tag, time: limit, seq: .max)
            for _ in 0..<Projector.checkpointsTried {
                guard let (key, value) = try reader.derived(atOrBefore: search, prefix: prefix),
                    let at = CheckpointKey.position(key)
                else { return nil }
                if let parsed = CheckpointValue(value), parsed.highSeq <= ceiling,
                    floors.minimumCeiling(at: at.time) <= ceiling,
                    let state = try state(of: parsed, device: device, tag: tag, in: reader),
                    let engine = try? DeviceEngine(checkpoint: state, policy: policy)
                {
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

    /// The engine state a checkpoint value holds: put together after the states it copies
    /// runs from, starting from `known` (a checkpoint's key and its state) when the chain
    /// reaches it; nil when one of them is missing or damaged.
    func state(
        of value: CheckpointValue, device: String, tag: [UInt8], in reader: LedgerReader,
        known: (key: [UInt8], state: [UInt8])? = nil
    ) throws -> [UInt8]? {
        var chain = [value]
        var state = [UInt8]()
        while let base = chain.last!.base {
            let key = CheckpointKey.key(device, tag, time: base.time, seq: base.seq)
            if let known, known.key == key {
                state = known.state
                break
            }
            guard chain.count <= 4 * CheckpointKey.keyframeInterval, let stored = try reader.derived(key),
                let parsed = CheckpointValue(stored)
            else { return nil }
            chain.append(parsed)
        }
        // Only the last state is checksummed: it is the one restored, and a damaged byte of
        // a state before it either is copied into it, and fails its checksum, or is not
        // part of what is restored.
        for (index, v) in chain.reversed().enumerated() {
            guard let next = v.state(after: state, verifying: index == chain.count - 1) else { return nil }
            state = next
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

    /// Brings the checkpoints up to date with the events recorded since the last look:
    /// those dated at or after the earliest new event of their device are stale. For this
    /// engine and policy, a refold from before the late events replaces them, and stops
    /// where it meets a stale checkpoint holding the very state it reached: from there on
    /// the late events changed nothing, so the checkpoints after it stay (see
    /// `reconcile`). Other engines' and policies' stale checkpoints are dropped.
    func prepare(reconciling: Bool = true) throws {
        guard !prepared, useCheckpoints, ledger.canWriteDerived else { return }
        prepared = true
        for _ in 0..<Projector.prepareAttempts {
            if try prepareOnce(reconciling: reconciling) { return }
        }
        try prepareOnce(reconciling: false, unconditionally: true)
    }

    /// The engine version and checkpoint layout this build writes, as one number.
    static let checkpointGeneration = UInt64(DeviceEngine.engineVersion) << 16 | UInt64(CheckpointKey.formatVersion)

    /// Deletes the checkpoints and floors, of every policy, that another engine version or
    /// checkpoint layout made: this build never reads them, and no build of this
    /// generation made them. Runs once, when the store's checkpoints were last written by
    /// another generation (or by a build that marked none); the policies' checkpoints of
    /// this generation that other processes write after it are kept.
    func sweepSupersededCheckpoints() throws {
        let generation = Projector.checkpointGeneration
        try ledger.writeDerived { w in
            guard try w.mark("checkpointGeneration") != generation else { return }
            for root in [CheckpointKey.root, CheckpointFloors.root] {
                try w.delete(prefix: root) { key in
                    !(CheckpointKey.tag(ofKey: key, under: root)?.elementsEqual(tag) ?? false)
                }
            }
            try w.setMark("checkpointGeneration", generation)
        }
    }

    /// How many times `prepare` starts over when another process moved the mark meanwhile.
    static let prepareAttempts = 3

    /// One try of `prepare`; false when another process changed the checkpoints' mark
    /// after this one read it (nothing is written then).
    @discardableResult
    func prepareOnce(reconciling: Bool, unconditionally: Bool = false) throws -> Bool {
        let (generation, mark, last, hasCheckpoints, damaged) = try ledger.read {
            reader -> (UInt64, UInt64, UInt64, Bool, [String]) in
            (
                try reader.derivedMark("checkpointGeneration"), try reader.derivedMark("checkpoints"),
                try reader.lastSeq(),
                try reader.hasDerived(prefix: CheckpointKey.root), try devicesWithDamagedFloors(reader)
            )
        }
        if generation != Projector.checkpointGeneration { try sweepSupersededCheckpoints() }
        if !damaged.isEmpty { try dropCheckpoints(of: damaged) }
        guard last > mark else { return true }
        var late = [String: LateSpan]()
        if hasCheckpoints {
            let newest = try newestCheckpointTimes()
            try ledger.read { reader in
                try reader.scan((mark + 1)...last) { view in
                    // A layout observation acts on the span before its time too: every
                    // checkpoint of its device is stale, and none is found unchanged.
                    if view.envelope.type == EventType.layoutObserved.rawValue {
                        late[view.envelope.device, default: LateSpan()].noteLayout()
                    } else {
                        late[view.envelope.device, default: LateSpan()].note(
                            view.envelope.time.microseconds,
                            newestCheckpoint: newest[view.envelope.device])
                    }
                    return true
                }
            }
        }
        var outcomes = [String: Reconciliation]()
        if reconciling {
            for (device, span) in late where span.latest != nil {
                outcomes[device] = reconcile(device: device, span: span, ceiling: last)
            }
        }
        return try ledger.writeDerived { w in
            let current = try w.mark("checkpoints")
            guard unconditionally || current == mark else { return false }
            for device in late.keys.sorted() {
                let from = late[device]!.earliest
                try w.delete(prefix: CheckpointKey.devicePrefix(device)) { key in
                    guard let at = CheckpointKey.position(key), at.time >= from else { return false }
                    guard key.starts(with: CheckpointKey.prefix(device, tag)), let kept = outcomes[device]?.converged
                    else { return true }
                    return (at.time, at.seq) < (kept.time, kept.seq)
                }
                guard let outcome = outcomes[device] else { continue }
                for (key, value) in outcome.made { try w.put(key, value) }
                if let kept = outcome.converged {
                    try w.put(kept.key, CheckpointValue.encode(highSeq: kept.highSeq, state: kept.state, base: nil))
                    let floorKey = CheckpointFloors.key(device, tag)
                    var floors = CheckpointFloors(stored: try w.get(floorKey))
                    floors.add(time: kept.time, ceiling: last)
                    try w.put(floorKey, floors.encoded)
                }
            }
            try w.setMark("checkpoints", last)
            return true
        }
    }

    /// The devices whose floors under this engine and policy are damaged: no answer may
    /// use their checkpoints (see `CheckpointFloors.init(stored:)`).
    func devicesWithDamagedFloors(_ reader: LedgerReader) throws -> [String] {
        var damaged = [String]()
        try reader.derivedEntries(prefix: CheckpointFloors.root) { k, v in
            if CheckpointFloors(Array(v)) == nil, let owner = CheckpointFloors.owner(ofKey: k), owner.tag == tag {
                damaged.append(owner.device)
            }
        }
        return damaged
    }

    /// Drops this engine's and policy's checkpoints of `devices`, and their floors, so that
    /// folds lay down new ones.
    func dropCheckpoints(of devices: [String]) throws {
        try ledger.writeDerived { w in
            for device in devices {
                try w.delete(prefix: CheckpointKey.prefix(device, tag))
                try w.delete(prefix: CheckpointFloors.key(device, tag))
            }
        }
    }

    /// The time of each device's newest checkpoint of this engine and policy.
    func newestCheckpointTimes() throws -> [String: Int64] {
        let devices = try self.devices()
        return try ledger.read { reader in
            var out = [String: Int64]()
            for d in devices {
                let prefix = CheckpointKey.prefix(d, tag)
                if let (key, _) = try reader.derived(
                    atOrBefore: CheckpointKey.key(d, tag, time: .max, seq: .max), prefix: prefix),
                    let at = CheckpointKey.position(key)
                {
                    out[d] = at.time
                }
            }
            return out
        }
    }
}

/// The times of one device's newly recorded events, as far as checkpoints care.
struct LateSpan {
    /// The earliest: checkpoints at or after it are stale.
    var earliest = Int64.max
    /// The latest of those dated at or before the device's newest checkpoint of this
    /// engine (nil when none is): a stale checkpoint after it may be found unchanged.
    var latest: Int64?

    /// Whether a layout observation is among them.
    var layoutObserved = false

    mutating func note(_ time: Int64, newestCheckpoint: Int64?) {
        earliest = min(earliest, time)
        guard !layoutObserved else { return }
        if let newest = newestCheckpoint, time <= newest { latest = max(latest ?? .min, time) }
    }

    /// A layout observation: stale from the start, and never reconciled.
    mutating func noteLayout() {
        layoutObserved = true
        earliest = .min
        latest = nil
    }
}

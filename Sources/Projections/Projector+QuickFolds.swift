import Ledger

extension Projector {
    /// Whether a question about `device` at `time`, over the whole log, folds at most
    /// `limit` records from a checkpoint: the device's checkpoints nearest `time`, one at
    /// or before it and one after it, are at most `limit` records of the log apart. False
    /// when either is missing (before the first checkpoint, after the last, or none yet).
    /// Read from the checkpoints' keys alone: a checkpoint found here that turns out
    /// unusable when restored (damaged, or made from a longer log) leaves the fold to an
    /// earlier one, so this tells how long a fold is, not how long it must be.
    public func foldsWithin(_ limit: UInt64, device: String, at time: Int64) throws -> Bool {
        let prefix = CheckpointKey.prefix(device, tag)
        let (before, after) = try ledger.read {
            try $0.derivedKeys(around: CheckpointKey.key(device, tag, time: time, seq: .max), prefix: prefix)
        }
        guard let before = before.flatMap(CheckpointKey.position), let after = after.flatMap(CheckpointKey.position),
            after.seq >= before.seq
        else { return false }
        return after.seq - before.seq <= limit
    }

    /// Brings the store's checkpoints up to date with the log, as the first fold of this
    /// projector would: an engine made ready before it answers anything.
    public func prepareCheckpoints() throws { try prepare() }
}

import Ledger

extension Projector {
    /// How a fold that starts now spaces the checkpoints it makes (`CheckpointSpacing`):
    /// `checkpointInterval` events apart at least, and `checkpointShare` of the log's bytes,
    /// read once for each state of the log (its last sequence number, `ceiling`), not at
    /// each fold.
    func checkpointSpacing(saving: Bool, ceiling: UInt64) throws -> CheckpointSpacing {
        guard saving, checkpointShare != nil else {
            return CheckpointSpacing(interval: checkpointInterval, share: checkpointShare, bytesPerEvent: 0)
        }
        if logBytesPerEventKept?.lastSeq != ceiling {
            logBytesPerEventKept = (ceiling, try ledger.logBytesPerEvent())
        }
        return CheckpointSpacing(
            interval: checkpointInterval, share: checkpointShare, bytesPerEvent: logBytesPerEventKept?.value ?? 0)
    }
}

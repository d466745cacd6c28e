import Ledger
import SmartStack

/// The observed layouts a fold from the start takes stacks from (`docs/events.md`,
/// "Observed layouts"), and whether checkpoints can serve the fold.
struct AssumedLayouts {
    /// The layouts the query's view of the log holds, with their sequence numbers.
    var view: [(seq: UInt64, event: Event)] = []
    /// Whether they are exactly the whole log's (checkpoints, made from the whole log,
    /// hold stacks assumed from those).
    var matchesWholeLog = true
}

extension Projector {
    /// The device's `stack.layoutObserved` events in the view of `query` over the log of
    /// `ceiling` records: not left out by `--without`, known by `--known-at`, and those
    /// `--with` adds.
    func assumedLayouts(device: String, query: ProjectionQuery, ceiling: UInt64) throws -> AssumedLayouts {
        var out = AssumedLayouts()
        let knownBy = query.knownAt?.microseconds ?? .max
        try ledger.read { reader in
            let last = try reader.lastSeq()
            for seq in try reader.seqs(indexKey: Event.layoutObservedKey) where seq <= last {
                try reader.withRecord(seq) { view in
                    guard view.envelope.device == device else { return }
                    let inView =
                        seq <= ceiling && !query.without.contains(seq) && view.envelope.time.microseconds <= knownBy
                    if inView { out.view.append((seq, try Event(record: view))) } else { out.matchesWholeLog = false }
                }
            }
        }
        for (offset, event) in query.with.enumerated() where event.envelope.device == device {
            if case .layoutObserved = event.body {
                out.view.append((ceiling + 1 + UInt64(offset), event))
                out.matchesWholeLog = false
            }
        }
        return out
    }
}

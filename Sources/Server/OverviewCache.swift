import Forensics
import Foundation
import Ledger
import Synchronization

/// Each device's overview (`/api/overview`), made once for each state of the log and shared by
/// every engine that answers: the overview reads only the log, so checkpoints landing do not
/// make it again, and the first page opened after `serve` starts finds it made
/// (`StackLedgerServer` makes every device's in the background as it starts). Overviews are
/// made from one `OverviewTally` of the whole log, which a commit extends by the records it
/// added: after a commit an overview reads the new records, not the whole log.
final class OverviewCache: Sendable {
    /// The tally of the log so far, shared by every device's overview.
    private let tally = Mutex(TallyState())
    /// How many more records a tally must hold than the one the store keeps before it is kept
    /// in its place.
    let saveEvery: UInt64

    /// A cache whose tally is kept in the store each time it holds `saveEvery` more records.
    init(saveEvery: UInt64 = 1_000_000) {
        self.saveEvery = saveEvery
    }

    /// How many records the tally read from the log (not from the tally the store keeps).
    var recordsRead: UInt64 { tally.withLock { $0.tally.recordsRead } }

    private struct TallyState {
        var tally = OverviewTally()
        /// Whether the tally the store keeps was looked for.
        var lookedForStored = false
        /// The last sequence number of the tally the store keeps.
        var savedThrough: UInt64 = 0
    }
    /// The overview of each device, with the last sequence number of the log it was made of.
    private let kept = Mutex<[String: (lastSeq: UInt64, answer: StoreAPI.Answer)]>([:])
    /// The lock each device's overview is made under.
    private let makers = Mutex<[String: NSLock]>([:])
    /// How many overviews were made since the cache was created: the measure of its work.
    private let madeCount = Mutex(0)

    /// How many overviews were made since the cache was created.
    var made: Int { madeCount.withLock { $0 } }

    /// The overview of `device` for the newest log, the tally extended to it first (a long
    /// stretch on both cores): the reads begin under the tally's lock, so the log they see
    /// is never older than the tally.
    func overview(device: String, ledger: Ledger) throws -> DeviceOverview {
        try tally.withLock { state in
            let last = try ledger.read { try $0.lastSeq() }
            if !state.lookedForStored {
                // The tally `rebuild` or an earlier server kept, unless it is of a longer log.
                state.lookedForStored = true
                if let kept = try? OverviewTally.stored(in: ledger), kept.throughSeq <= last {
                    state.tally = kept
                    state.savedThrough = kept.throughSeq
                }
            }
            try state.tally.extend(ledger, through: last)
            if state.tally.throughSeq >= state.savedThrough + saveEvery, ledger.canWriteDerived {
                // Kept on a thread of its own: the answer does not wait for the store's writer.
                let kept = state.tally
                state.savedThrough = kept.throughSeq
                Thread.detachNewThread { try? kept.save(to: ledger) }
            }
            return try ledger.read { try state.tally.overview(device: device, reader: $0) }
        }
    }

    /// The overview of `device` for the log ending at `lastSeq`: the one kept, or `make`'s,
    /// then kept.
    func answer(device: String, lastSeq: UInt64, make: () throws -> StoreAPI.Answer) rethrows -> StoreAPI.Answer {
        if let found = kept.withLock({ $0[device] }), found.lastSeq == lastSeq { return found.answer }
        // One engine makes a device's overview at a time; another asking meanwhile waits for it.
        let making = makers.withLock { makers in
            if let lock = makers[device] { return lock }
            let lock = NSLock()
            makers[device] = lock
            return lock
        }
        making.lock()
        defer { making.unlock() }
        if let found = kept.withLock({ $0[device] }), found.lastSeq == lastSeq { return found.answer }
        let answer = try make()
        madeCount.withLock { $0 += 1 }
        kept.withLock { kept in
            // A newer log's overview, made meanwhile by another engine, is not replaced by an older one.
            if let other = kept[device], other.lastSeq > lastSeq { return }
            kept[device] = (lastSeq, answer)
        }
        return answer
    }
}

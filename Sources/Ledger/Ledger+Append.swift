import LMDBKit
import Synchronization

extension Ledger {
    /// Appends `events` durably, in order, in one commit (shared with other threads'
    /// appends that arrive meanwhile). Events whose id is already stored with the same
    /// content are skipped.
    ///
    /// - Returns: the sequence numbers assigned and the counts.
    /// - Throws: `LedgerError.idConflict` if an id is stored with other content (then
    ///   none of `events` is stored), `.storage` if the commit fails (nothing is stored).
    public func append<E: LedgerPayload & Sendable>(_ events: [E]) throws(LedgerError) -> AppendReceipt {
        try append(prepare(events))
    }

    /// Appends a batch made by `prepare(_:)`, durably, in one commit.
    public func append(_ batch: PreparedBatch) throws(LedgerError) -> AppendReceipt {
        let request = GroupCommitter.Request { writer in
            if let receipt = try writer.append(prepared: batch, epoch: writer.preparationEpoch) { return receipt }
            writer.reencoded = true
            return try batch.reencode(writer)
        }
        return try committer.submit(request) { batch in commitGroup(batch) }.get()
    }

    /// Appends the events `produce` hands over in chunks, in order, durably, all in one
    /// commit: a large artifact file is stored whole or not at all without holding its
    /// events at once. Events whose id is already stored with the same content are skipped.
    ///
    /// - Parameter produce: calls its argument with each chunk, in order.
    /// - Throws: `LedgerError.idConflict` if an id is stored with other content, `.storage`
    ///   if the commit fails or `produce` throws; then nothing of it is stored.
    public func appendInOneCommit<E: LedgerPayload & SendableMetatype>(
        _ produce: @escaping @Sendable (_ store: ([E]) throws -> Void) throws -> Void
    ) throws(LedgerError) -> AppendReceipt {
        let request = GroupCommitter.Request { writer in
            // Strings are added by this transaction's own writer, as when a batch is
            // encoded again: the provisional ids of prepared batches must be renewed.
            writer.reencoded = true
            var total = AppendReceipt(recordedAt: Timestamp(microseconds: writer.recordedMicros))
            try produce { chunk in
                let receipt = try Ledger.store(chunk, in: writer)
                if total.firstSeq == nil { total.firstSeq = receipt.firstSeq }
                if let last = receipt.lastSeq { total.lastSeq = last }
                total.stored += receipt.stored
                total.duplicates += receipt.duplicates
            }
            return total
        }
        return try committer.submit(request) { batch in commitGroup(batch) }.get()
    }

    private struct RequestFailed: Error {
        let index: Int
        let error: LedgerError
    }

    private func commitGroup(_ requests: [GroupCommitter.Request]) {
        var pending = requests
        while !pending.isEmpty {
            do {
                let (receipts, snapshot, reencoded) = try environment.write { txn in
                    WriteHooks.insideWrite()
                    let writer = try BatchWriter(ledger: self, txn: txn)
                    let storeCount = writer.interner.snapshot.count
                    writer.preparationEpoch = preparation.withLock { state in
                        // Strings this process did not add mean another writer was here:
                        // provisional ids cannot be trusted in this transaction.
                        state.committed == storeCount ? state.epoch : -1
                    }
                    writer.reencoded = writer.preparationEpoch < 0
                    var receipts = [AppendReceipt]()
                    for (i, request) in pending.enumerated() {
                        do {
                            receipts.append(try request.work(writer))
                        } catch let e as LedgerError where e.kind == .idConflict {
                            throw RequestFailed(index: i, error: e)
                        }
                    }
                    // A transaction that stored no record (all duplicates) writes nothing,
                    // not even the strings its batches would have defined.
                    let header = try writer.seal()
                    return (receipts, header == nil ? nil : writer.interner.snapshot, writer.reencoded)
                }
                if let snapshot {
                    stringTable.publish(snapshot)
                    if reencoded {
                        resetPreparation(committed: snapshot)
                    } else {
                        preparation.withLock { $0.committed = snapshot.count }
                    }
                }
                for (request, receipt) in zip(pending, receipts) { request.complete(.success(receipt)) }
                pending.removeAll()
            } catch let failed as RequestFailed {
                pending[failed.index].complete(.failure(failed.error))
                pending.remove(at: failed.index)
                resetPreparation(committed: stringTable.snapshot())
            } catch {
                resetPreparation(committed: stringTable.snapshot())
                let e = Ledger.describe(error, path: path)
                for request in pending { request.complete(.failure(e)) }
                pending.removeAll()
            }
        }
    }
}

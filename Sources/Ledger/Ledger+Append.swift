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

    /// Appends batches prepared by `bulk`, handed over by `produce` in order, durably, all
    /// in one commit: a large artifact file, encoded while it was read, is stored whole or
    /// not at all. The records are stored as prepared when the store's string table is the
    /// one `bulk` started from, plus strings of its own committed since; otherwise (another
    /// writer added strings) each record is read back, made an event by `decode` and
    /// encoded again. Events whose id is already stored with the same content are skipped.
    ///
    /// `produce` runs again from its start when the map had to grow during the commit:
    /// it must hand over the same batches each time. It may hand over batches prepared
    /// while the commit runs (a file committed while it is read).
    ///
    /// - Throws: `LedgerError.idConflict` if an id is stored with other content, `.storage`
    ///   if the commit fails or `produce` throws; then nothing of it is stored.
    ///
    /// - Parameter bytes: about how many bytes the batches hold: room for them is made in
    ///   the map first, so that the commit does not run again each time the map fills.
    public func appendInOneCommit<E: LedgerPayload>(
        preparedBy bulk: BulkPreparation, bytes: Int = 0, decode: @escaping @Sendable (RecordView) throws -> E,
        _ produce: @escaping @Sendable (_ store: (PreparedBatch) throws -> Void) throws -> Void
    ) throws(LedgerError) -> AppendReceipt {
        try appendEachInOneCommit(preparedBy: bulk, bytes: bytes, decode: decode, [produce])[0].get()
    }

    /// Appends several artifact files, each as `appendInOneCommit(preparedBy:...)` would,
    /// in order, in one commit: each file is stored whole or not at all, and a file refused
    /// (an id stored with other content) leaves the others to be stored. Small files read
    /// together thus share one flush to disk.
    ///
    /// - Parameter bytes: about how many bytes all the files' batches hold.
    /// - Returns: each file's receipt or error, in order.
    /// - Throws: `LedgerError` when room cannot be made in the map.
    public func appendEachInOneCommit<E: LedgerPayload>(
        preparedBy bulk: BulkPreparation, bytes: Int = 0, decode: @escaping @Sendable (RecordView) throws -> E,
        _ files: [@Sendable (_ store: (PreparedBatch) throws -> Void) throws -> Void]
    ) throws(LedgerError) -> [Result<AppendReceipt, LedgerError>] {
        // Records, their index entries and the tree's pages take about three times the
        // records' bytes.
        do { try environment.reserve(bytes * 3) } catch { throw Ledger.describe(error, path: path) }
        let requests = files.map { produce in
            GroupCommitter.Request { writer in
                // Strings are defined by this transaction's own writer: the provisional ids
                // of batches prepared by `prepare(_:)` must be renewed after it.
                writer.reencoded = true
                let asPrepared = writer.adoptProvisionalStrings(bulk.provisional, base: bulk.base)
                var total = AppendReceipt(recordedAt: Timestamp(microseconds: writer.recordedMicros))
                try produce { batch in
                    // A batch prepared after the commit began may use strings assigned since.
                    let receipt =
                        asPrepared
                        ? try writer.appendRecords(of: batch)
                        : try writer.appendDecoding(batch, strings: bulk.provisional, decode: decode)
                    total.add(receipt)
                }
                // Strings assigned while the batches were handed over are defined too.
                if asPrepared && !writer.adoptProvisionalStrings(bulk.provisional, base: bulk.base) {
                    throw LedgerError(.storage, "the strings of prepared batches changed during their commit")
                }
                return total
            }
        }
        return committer.submit(requests) { batch in commitGroup(batch) }
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
                    WriteHooks.insideWrite(path: path)
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

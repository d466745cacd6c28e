import LMDBKit

extension Ledger {
    /// Appends `events` durably, in order, in one commit (shared with other threads'
    /// appends that arrive meanwhile). Events whose id is already stored with the same
    /// content are skipped.
    ///
    /// - Returns: the sequence numbers assigned and the counts.
    /// - Throws: `LedgerError.idConflict` if an id is stored with other content (then
    ///   none of `events` is stored), `.storage` if the commit fails (nothing is stored).
    public func append<E: LedgerPayload & Sendable>(_ events: [E]) throws(LedgerError) -> AppendReceipt {
        let request = GroupCommitter.Request { writer in
            var receipt = AppendReceipt(recordedAt: Timestamp(microseconds: writer.recordedMicros))
            for event in events {
                if let seq = try writer.append(event) {
                    if receipt.firstSeq == nil { receipt.firstSeq = seq }
                    receipt.lastSeq = seq
                    receipt.stored += 1
                } else {
                    receipt.duplicates += 1
                }
            }
            return receipt
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
                let (receipts, snapshot) = try environment.write { txn in
                    let writer = try BatchWriter(ledger: self, txn: txn)
                    var receipts = [AppendReceipt]()
                    for (i, request) in pending.enumerated() {
                        do {
                            receipts.append(try request.work(writer))
                        } catch let e as LedgerError where e.kind == .idConflict {
                            throw RequestFailed(index: i, error: e)
                        }
                    }
                    _ = try writer.seal()
                    return (receipts, writer.interner.snapshot)
                }
                stringTable.publish(snapshot)
                for (request, receipt) in zip(pending, receipts) { request.complete(.success(receipt)) }
                pending.removeAll()
            } catch let failed as RequestFailed {
                pending[failed.index].complete(.failure(failed.error))
                pending.remove(at: failed.index)
            } catch {
                let e = Ledger.describe(error, path: path)
                for request in pending { request.complete(.failure(e)) }
                pending.removeAll()
            }
        }
    }
}

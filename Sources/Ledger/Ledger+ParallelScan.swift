import Dispatch
import LMDBKit
import Synchronization

extension Ledger {
    /// Calls `body` for every record, on `threads` threads at once, each reading its own
    /// contiguous range of sequence numbers in its own read transaction (one consistent
    /// snapshot: the range ends are fixed before the threads start). Within a thread the
    /// records come in sequence order; across threads there is no order.
    ///
    /// - Throws: the first error a thread met (the others stop at their next record).
    public func scanInParallel(threads: Int = 2, _ body: @Sendable (RecordView) throws -> Void) throws {
        let last = try read { try $0.lastSeq() }
        guard last > 0 else { return }
        let parts = UInt64(max(1, threads))
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: Int(parts)) { k in
            let k = UInt64(k)
            let from = last * k / parts + 1
            let to = last * (k + 1) / parts
            guard from <= to else { return }
            do {
                try environment.read { txn in
                    let reader = try LedgerReader(ledger: self, txn: txn, privateStrings: true)
                    try reader.scan(from...to) { view in
                        try body(view)
                        return failure.withLock { $0 == nil }
                    }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

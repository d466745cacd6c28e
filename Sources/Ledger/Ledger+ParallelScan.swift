import Dispatch
import LMDBKit
import Synchronization

extension Ledger {
    /// Calls `body` for every record, on `threads` threads at once, each reading its own
    /// contiguous range of sequence numbers in its own read transaction (one consistent
    /// snapshot: the range ends are fixed before the threads start). Within a thread the
    /// records come in sequence order; across threads there is no order.
    ///
    /// - Returns: how many records were visited (counted by each thread on its own, so
    ///   that callers need no counter shared between threads).
    /// - Throws: the first error a thread met (the others stop at their next record).
    @discardableResult
    public func scanInParallel(threads: Int = 2, _ body: @Sendable (RecordView) throws -> Void) throws -> Int {
        let last = try read { try $0.lastSeq() }
        guard last > 0 else { return 0 }
        let parts = UInt64(max(1, threads))
        let failure = Mutex<(any Error)?>(nil)
        let visited = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: Int(parts)) { k in
            let k = UInt64(k)
            let from = last * k / parts + 1
            let to = last * (k + 1) / parts
            guard from <= to else { return }
            do {
                try environment.read { txn in
                    let reader = try LedgerReader(ledger: self, txn: txn, privateStrings: true)
                    var mine = 0
                    try reader.scan(from...to) { view in
                        try body(view)
                        mine += 1
                        // Another thread's failure ends this one at its next batch of records.
                        return mine & 1023 != 0 || failure.withLock { $0 == nil }
                    }
                    visited.add(mine, ordering: .relaxed)
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return visited.load(ordering: .relaxed)
    }
}

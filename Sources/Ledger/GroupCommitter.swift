import Dispatch
import Synchronization

/// Lets appenders in one process share commits: the first to arrive becomes the leader
/// and commits every request queued meanwhile in one write transaction.
final class GroupCommitter: Sendable {
    final class Request: Sendable {
        let work: @Sendable (BatchWriter) throws -> AppendReceipt
        private let outcome = Mutex<Result<AppendReceipt, LedgerError>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(work: @escaping @Sendable (BatchWriter) throws -> AppendReceipt) { self.work = work }

        func complete(_ result: Result<AppendReceipt, LedgerError>) {
            outcome.withLock { $0 = result }
            done.signal()
        }

        func wait() -> Result<AppendReceipt, LedgerError> {
            done.wait()
            return outcome.withLock { $0! }
        }
    }

    private struct State {
        var queue: [Request] = []
        var leaderActive = false
    }

    private let state = Mutex(State())

    /// How many requests wait for the next commit.
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Queues `request`; runs `commit` on batches of queued requests if no other thread
    /// is doing so; returns when `request` is complete.
    func submit(_ request: Request, commit: ([Request]) -> Void) -> Result<AppendReceipt, LedgerError> {
        submit([request], commit: commit)[0]
    }

    /// Queues `requests` together, in order, so that they share a commit; returns when
    /// every one is complete.
    func submit(_ requests: [Request], commit: ([Request]) -> Void) -> [Result<AppendReceipt, LedgerError>] {
        let lead = state.withLock { s -> Bool in
            s.queue += requests
            if s.leaderActive { return false }
            s.leaderActive = true
            return true
        }
        if lead {
            while true {
                let batch = state.withLock { s -> [Request] in
                    let b = s.queue
                    s.queue.removeAll()
                    if b.isEmpty { s.leaderActive = false }
                    return b
                }
                if batch.isEmpty { break }
                commit(batch)
            }
        }
        return requests.map { $0.wait() }
    }
}

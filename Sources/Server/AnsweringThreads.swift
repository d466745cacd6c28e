import Foundation
import Synchronization

/// The threads that answer the API's questions, one per core, each with its own `StoreAPI`
/// (its own engine) over the same store. Questions wait in one queue and are taken in the
/// order they came, by whichever thread is free, so that a long question never holds others
/// back while a thread is idle, and the engines' blocking work stays off the threads that
/// serve connections. Every answer reads the newest commit, so which thread answers never
/// changes the answer.
final class AnsweringThreads: Sendable {
    typealias Job = @Sendable (StoreAPI) -> Void

    /// The questions not yet taken, oldest first.
    private let waiting = Mutex(JobQueue())
    /// Signalled once per question queued.
    private let queued = DispatchSemaphore(value: 0)

    /// Starts `count` threads; each makes its `StoreAPI` with `make`.
    init(count: Int, make: @escaping @Sendable () -> StoreAPI) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in
                let api = make()
                while true {
                    queued.wait()
                    if let job = waiting.withLock({ $0.pop() }) { job(api) }
                }
            }
            thread.name = "stackledger-answer-\(index)"
            thread.start()
        }
    }

    /// Queues a question and waits for its answer.
    func answer(_ question: @escaping @Sendable (StoreAPI) throws -> StoreAPI.Answer) async throws
        -> StoreAPI.Answer
    {
        try await withCheckedThrowingContinuation { continuation in
            waiting.withLock { $0.push { api in continuation.resume(with: Result { try question(api) }) } }
            queued.signal()
        }
    }

    /// A first-in, first-out queue of jobs. A job taken is no longer held, and the slots of
    /// taken jobs are given back as the queue goes, even when it never empties (16 clients
    /// always waiting on 2 threads): the queue holds about the jobs waiting, never all the
    /// jobs since it was last empty.
    struct JobQueue: ~Copyable {
        private var jobs: [Job?] = []
        private var head = 0

        /// The slots in use: the jobs waiting, and taken ones not yet given back.
        var slots: Int { jobs.count }

        mutating func push(_ job: @escaping Job) { jobs.append(job) }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}

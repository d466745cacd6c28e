import Dispatch
import Ledger
import SmartStack
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A bounded hand-off of batches from the parsing thread to the committing thread.
final class BatchChannel: Sendable {
    private struct State {
        var batches: [[Event]] = []
        var finished = false
        var failure: String?
        var cancelled = false
    }
    private let state = Mutex(State())
    private let items = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore

    init(capacity: Int) { slots = DispatchSemaphore(value: capacity) }

    /// Blocks while the channel is full; returns false once the consumer cancelled.
    func send(_ batch: [Event]) -> Bool {
        slots.wait()
        let ok = state.withLock { s -> Bool in
            if s.cancelled { return false }
            s.batches.append(batch)
            return true
        }
        items.signal()
        return ok
    }

    func finish(failure: String? = nil) {
        state.withLock { $0.finished = true; $0.failure = failure }
        items.signal()
    }

    /// The next batch, or nil at the end (with the producer's failure, if any).
    func receive() -> (batch: [Event]?, failure: String?) {
        items.wait()
        return state.withLock { s in
            if !s.batches.isEmpty {
                slots.signal()
                return (s.batches.removeFirst(), nil)
            }
            return (nil, s.failure)
        }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        slots.signal()
    }
}

extension Ingestor {
    func store(_ inputs: [Input], rejected: Set<Int64>) throws -> IngestSummary {
        let channel = BatchChannel(capacity: 4)
        let batchSize = max(1, options.batchSize)
        let batchNanos = UInt64(max(1, options.batchMilliseconds)) * 1_000_000
        let producer = Thread {
            var decoder = EventDecoder(sharingStrings: false)
            var batch = [Event]()
            batch.reserveCapacity(batchSize)
            var started = DispatchTime.now().uptimeNanoseconds
            var failure: String?
            do {
                outer: for (index, input) in inputs.enumerated() {
                    var keepGoing = true
                    try LineReader(path: input.path).forEachLine { line, _, bytes in
                        if Ingestor.isBlank(bytes) { return true }
                        if !rejected.isEmpty && rejected.contains(Int64(index) << 40 | Int64(line)) { return true }
                        guard let event = try? decoder.decode(line: bytes) else { return true }
                        batch.append(event)
                        if batch.count >= batchSize || DispatchTime.now().uptimeNanoseconds - started >= batchNanos {
                            keepGoing = channel.send(batch)
                            batch.removeAll(keepingCapacity: true)
                            started = DispatchTime.now().uptimeNanoseconds
                        }
                        return keepGoing
                    }
                    if !keepGoing { break outer }
                }
                if !batch.isEmpty { _ = channel.send(batch) }
            } catch {
                failure = "\(error)"
            }
            channel.finish(failure: failure)
        }
        producer.start()
        var summary = IngestSummary()
        while true {
            let (batch, failure) = channel.receive()
            if let failure { throw LedgerError(.storage, failure) }
            guard let batch else { break }
            let receipt: AppendReceipt
            do {
                receipt = try ledger.append(batch)
            } catch {
                channel.cancel()
                throw error
            }
            summary.stored += receipt.stored
            summary.duplicates += receipt.duplicates
            if let f = receipt.firstSeq, summary.firstSeq == nil { summary.firstSeq = f }
            if let l = receipt.lastSeq { summary.lastSeq = l }
            options.onCommit?(receipt, summary.stored + summary.duplicates)
        }
        producer.join()
        return summary
    }
}

/// A thread that runs a closure once and can be joined.
final class Thread: Sendable {
    private let body: @Sendable () -> Void
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        DispatchQueue.global().async { [self] in
            body()
            done.signal()
        }
    }

    func join() { done.wait() }
}

import Dispatch
import Ledger
import SmartStack
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension Ingestor {
    func store(_ inputs: [Input], rejected: Set<Int64>) throws -> IngestSummary {
        let channel = HandOff<PreparedBatch>(capacity: 2)
        let batchSize = max(1, options.batchSize)
        let batchNanos = UInt64(max(1, options.batchMilliseconds)) * 1_000_000
        let producer = WorkerThread {
            var decoder = EventDecoder()
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
                            keepGoing = channel.send(ledger.prepare(batch))
                            batch.removeAll(keepingCapacity: true)
                            started = DispatchTime.now().uptimeNanoseconds
                        }
                        return keepGoing
                    }
                    if !keepGoing { break outer }
                }
                if !batch.isEmpty { _ = channel.send(ledger.prepare(batch)) }
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
final class WorkerThread: Sendable {
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

import Dispatch
import Ledger
import SmartStack

extension Ingestor {
    /// Stores the inputs from their text, leaving out the `rejected` lines: the path for
    /// `--skip-invalid` when lines were found invalid only after the spool was written.
    func store(_ inputs: [Input], rejected: RejectedLines) throws -> IngestSummary {
        let batchSize = max(1, options.batchSize)
        let batchNanos = UInt64(max(1, options.batchMilliseconds)) * 1_000_000
        var summary = IngestSummary()
        try ledger.appendAll(
            producing: { (send: ([Event]) -> Bool) in
                var decoder = EventDecoder()
                var batch = [Event]()
                batch.reserveCapacity(batchSize)
                var started = DispatchTime.now().uptimeNanoseconds
                for (index, input) in inputs.enumerated() {
                    var keepGoing = true
                    try LineReader(path: input.path).forEachLine { line, _, bytes in
                        if Ingestor.isBlank(bytes) || rejected.contains(input: index, line: line) { return true }
                        guard let event = try? decoder.decode(line: bytes) else { return true }
                        batch.append(event)
                        if batch.count >= batchSize || DispatchTime.now().uptimeNanoseconds - started >= batchNanos {
                            keepGoing = send(batch)
                            batch.removeAll(keepingCapacity: true)
                            started = DispatchTime.now().uptimeNanoseconds
                        }
                        return keepGoing
                    }
                    if !keepGoing { return }
                }
                if !batch.isEmpty { _ = send(batch) }
            },
            onCommit: { receipt in
                summary.stored += receipt.stored
                summary.duplicates += receipt.duplicates
                if let f = receipt.firstSeq, summary.firstSeq == nil { summary.firstSeq = f }
                if let l = receipt.lastSeq { summary.lastSeq = l }
                options.onCommit?(receipt, summary.stored + summary.duplicates)
            })
        return summary
    }
}

import Dispatch
import Foundation
import Ledger
import SmartStack
import Synchronization

/// The bulk path of an ingest: both cores validate and encode the input into spool files
/// (nothing is stored yet); when every line is valid, the spooled batches are committed in
/// file order. Each line is parsed once and the writer only writes.
extension Ingestor {
    /// One part of an input, validated and encoded by one thread.
    struct PartOutcome: Sendable {
        var validation = Validation()
        /// The sorted runs of the ids it saw.
        var seenRuns: [String] = []
        /// The lines that create stacks (checked against `StackBound` once all is read).
        var stackOccurrences: [StackBound.Occurrence] = []
        var spool: String
        var input: Int
        var inputPath: String
        var batches = 0
    }

    /// Spooled batches are framed as: u64 length, u64 start offset, u64 end offset,
    /// u64 number of the line before the start, then the batch's bytes.
    static let frameHeader = 32

    func validateAndPrepare(_ inputs: [Input], bulk: BulkPreparation, spoolDirectory: String) throws -> [PartOutcome] {
        var split = [(input: Int, reader: LineReader)]()
        for (index, input) in inputs.enumerated() {
            for reader in try LineReader.split(input.path, parts: 2, alignLines: max(1, options.batchSize)) {
                split.append((index, reader))
            }
        }
        let parts = split
        let outcomes = Mutex([Int: Result<PartOutcome, any Error>]())
        let lines = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
            let result = Result {
                try validateAndPrepare(
                    parts[k].reader, input: parts[k].input, inputs: inputs, bulk: bulk,
                    spool: spoolDirectory + "/part-\(k)", lines: lines)
            }
            outcomes.withLock { $0[k] = result }
        }
        return try (0..<parts.count).map { k in try outcomes.withLock { $0[k]! }.get() }
    }

    private func validateAndPrepare(
        _ reader: LineReader, input index: Int, inputs: [Input], bulk: BulkPreparation, spool: String,
        lines: borrowing Atomic<Int>
    ) throws -> PartOutcome {
        let name = inputs[index].displayName
        var outcome = PartOutcome(spool: spool, input: index, inputPath: inputs[index].path)
        outcome.validation.keepsRejectedLines = options.skipInvalid
        var seen = SeenIDRuns(pathPrefix: spool)
        guard
            let file = FileHandle(forWritingAtPath: spool)
                ?? {
                    _ = FileManager.default.createFile(
                        atPath: spool, contents: nil, attributes: [.posixPermissions: 0o600])
                    return FileHandle(forWritingAtPath: spool)
                }()
        else { throw LedgerError(.storage, "cannot create the spool file \(spool)") }
        defer { try? file.close() }
        var decoder = EventDecoder()
        let worker = bulk.makeWorker()
        var batch = [Event]()
        let batchSize = max(1, options.batchSize)
        batch.reserveCapacity(batchSize)
        var batchStart = reader.range.lowerBound
        var batchEnd = batchStart
        var batchFirstLine = reader.linesBefore
        let batchNanos = UInt64(max(1, options.batchMilliseconds)) * 1_000_000
        var batchStarted = DispatchTime.now().uptimeNanoseconds
        var frames = [UInt8]()
        func flush() throws {
            guard !batch.isEmpty else { return }
            // Spooled: its way to encode again is given when it is read back.
            let prepared = bulk.prepare(batch, worker: worker)
            let bytes = prepared.serialized()
            var header = ByteWriter(capacity: Ingestor.frameHeader)
            header.writeFixed(UInt64(bytes.count))
            header.writeFixed(UInt64(batchStart))
            header.writeFixed(UInt64(batchEnd))
            header.writeFixed(UInt64(batchFirstLine))
            frames.append(contentsOf: header.bytes)
            frames.append(contentsOf: bytes)
            if frames.count >= 8 << 20 {
                try file.write(contentsOf: frames)
                frames.removeAll(keepingCapacity: true)
            }
            outcome.batches += 1
            batch.removeAll(keepingCapacity: true)
        }
        try ledger.read { store in
            try reader.forEachLine(onOverlong: { line, _ in
                outcome.validation.reject(
                    IngestProblem(
                        file: name, line: line, column: 1, field: "",
                        message: "the line exceeds the limit of 8 MiB"), input: index)
            }) { line, offset, bytes in
                if line & 0xFFFF == 0 { options.onValidated?(lines.add(0x10000, ordering: .relaxed).newValue) }
                if batch.isEmpty {
                    batchStart = offset
                    batchFirstLine = line - 1
                    batchStarted = DispatchTime.now().uptimeNanoseconds
                }
                batchEnd = offset + bytes.count + 1
                if Ingestor.isBlank(bytes) { return true }
                do {
                    let event = try decoder.decode(line: bytes)
                    if let id = event.envelope.id {
                        try seen.append(
                            SeenID(
                                idHash: Ingestor.stableHash(id), input: Int32(index), line: Int32(line), offset: offset)
                        )
                        if let storedSeq = try store.seq(forEventID: id),
                            try store.withRecord(storedSeq, { try Event(record: $0) }) != event
                        {
                            outcome.validation.reject(
                                IngestProblem(
                                    file: name, line: line, column: 1, field: "id",
                                    message:
                                        "id \"\(id)\" is already stored as sequence number \(storedSeq) with different content; give this event another id"
                                ), input: index)
                            return true
                        }
                    }
                    event.forEachCreatedStack { stack in
                        outcome.stackOccurrences.append(
                            StackBound.Occurrence(
                                device: event.envelope.device, stack: stack, input: Int32(index), line: Int32(line)))
                    }
                    // Once a line is invalid nothing will be stored (unless skipping), so
                    // encoding stops; validation goes on to report every problem.
                    if outcome.validation.problemCount == 0 || options.skipInvalid {
                        batch.append(event)
                        if batch.count >= batchSize
                            || (batch.count & 255 == 0
                                && DispatchTime.now().uptimeNanoseconds - batchStarted >= batchNanos)
                        {
                            try flush()
                        }
                    }
                } catch let e as FieldError {
                    outcome.validation.reject(
                        IngestProblem(file: name, line: line, column: e.offset + 1, field: e.field, message: e.message),
                        input: index)
                }
                return true
            }
        }
        try flush()
        try file.write(contentsOf: frames)
        try seen.flush()
        outcome.seenRuns = seen.paths
        return outcome
    }

    /// Commits the spooled batches of every part, in order.
    func commitSpool(_ parts: [PartOutcome], bulk: BulkPreparation, rejected: RejectedLines) throws -> IngestSummary {
        let newStrings = bulk.newStrings
        var summary = IngestSummary()
        var first = true
        for part in parts where part.batches > 0 {
            // Read the spool frame by frame: memory stays at about one batch.
            guard let file = FileHandle(forReadingAtPath: part.spool) else {
                throw LedgerError(.storage, "cannot read the spool file \(part.spool)")
            }
            defer { try? file.close() }
            for _ in 0..<part.batches {
                guard let head = try file.read(upToCount: Ingestor.frameHeader), head.count == Ingestor.frameHeader
                else {
                    throw LedgerError(.storage, "the spool file \(part.spool) ends early")
                }
                let (length, range, linesBefore) = try head.withUnsafeBytes { raw in
                    var r = ByteReader(raw)
                    return (
                        Int(try r.readFixed(UInt64.self)),
                        Int(try r.readFixed(UInt64.self))..<Int(try r.readFixed(UInt64.self)),
                        Int(try r.readFixed(UInt64.self))
                    )
                }
                guard let body = try file.read(upToCount: length), body.count == length else {
                    throw LedgerError(.storage, "the spool file \(part.spool) ends early")
                }
                let (path, input) = (part.inputPath, part.input)
                var batch = try body.withUnsafeBytes { raw in
                    try PreparedBatch.deserialized(raw) { writer in
                        try Ledger.store(
                            try Ingestor.reread(
                                path: path, range: range, linesBefore: linesBefore,
                                input: input, rejected: rejected), in: writer)
                    }
                }
                let defining = first
                if first {
                    batch.setBulkStrings(defining: newStrings, base: bulk.base)
                    first = false
                } else {
                    batch.setBulkStrings(defining: [], base: bulk.base + newStrings.count)
                }
                let receipt = try ledger.append(batch)
                // A batch that stored nothing (all duplicates) defined no strings either:
                // the next batch defines them.
                if receipt.stored == 0 && defining { first = true }
                summary.stored += receipt.stored
                summary.duplicates += receipt.duplicates
                if let f = receipt.firstSeq, summary.firstSeq == nil { summary.firstSeq = f }
                if let l = receipt.lastSeq { summary.lastSeq = l }
                options.onCommit?(receipt, summary.stored + summary.duplicates)
            }
        }
        return summary
    }

    /// The valid events of a byte range of an input (for a batch encoded again at commit).
    static func reread(path: String, range: Range<Int>, linesBefore: Int, input: Int, rejected: RejectedLines) throws
        -> [Event]
    {
        var events = [Event]()
        var decoder = EventDecoder()
        try LineReader(path: path, range: range, linesBefore: linesBefore).forEachLine { line, _, bytes in
            guard !isBlank(bytes), !rejected.contains(input: input, line: line) else { return true }
            if let e = try? decoder.decode(line: bytes) { events.append(e) }
            return true
        }
        return events
    }
}

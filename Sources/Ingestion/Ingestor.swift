import Dispatch
import Foundation
public import Ledger
import SmartStack
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Validates NDJSON input in full, then appends it to a ledger in whole batches.
///
/// Pass one parses every line and checks ids (within the input and against the store);
/// nothing is stored if a line is invalid (unless `skipInvalid`). Pass two parses again
/// on a second thread while the calling thread commits batches, so memory stays flat
/// whatever the input's size.
public struct Ingestor: Sendable {
    /// How to ingest.
    public struct Options: Sendable {
        /// Store the valid lines and list the invalid ones, instead of rejecting the run.
        public var skipInvalid = false
        /// Events per commit.
        public var batchSize = 4096
        /// Milliseconds after which a partial batch is committed.
        public var batchMilliseconds = 250
        /// Called after every commit with the receipt (for progress and crash reports).
        public var onCommit: (@Sendable (AppendReceipt, Int) -> Void)?
        /// Called with the number of lines validated so far (for progress).
        public var onValidated: (@Sendable (Int) -> Void)?

        /// Creates options.
        public init() {}
    }

    let ledger: Ledger
    let options: Options

    /// Creates an ingestor for `ledger`.
    public init(ledger: Ledger, options: Options = Options()) {
        self.ledger = ledger
        self.options = options
    }

    /// One input: a path to read and the name to show in messages.
    public struct Input: Sendable {
        public var path: String
        public var displayName: String
        public init(path: String, displayName: String) {
            self.path = path
            self.displayName = displayName
        }
    }

    /// Validates every input, then stores them.
    /// - Throws: `IngestRejected` (exit 65) when a line is invalid and `skipInvalid` is
    ///   off; `LedgerError` when storing fails (what was committed stays committed).
    public func run(_ inputs: [Input]) throws -> IngestSummary {
        let spoolDirectory = try TemporaryFiles.makeDirectory("spool")
        defer { TemporaryFiles.remove(spoolDirectory) }
        let stackMark = try StackBound.catchUp(ledger)
        let bulk = try BulkPreparation(ledger: ledger)
        let parts = try validateAndPrepare(inputs, bulk: bulk, spoolDirectory: spoolDirectory)
        var validation = Validation()
        validation.keepsRejectedLines = options.skipInvalid
        for part in parts {
            validation.problemCount += part.validation.problemCount
            validation.problems += part.validation.problems.prefix(max(0, 1000 - validation.problems.count))
            validation.rejectedLines.formUnion(part.validation.rejectedLines)
        }
        let rejectedWhileReading = validation.problemCount
        try checkRepeatedIDs(parts.flatMap(\.seenRuns), inputs: inputs, into: &validation)
        let stackOccurrences = parts.flatMap(\.stackOccurrences)
        for (problem, input) in try StackBound.check(stackOccurrences, inputs: inputs, ledger: ledger) {
            validation.reject(problem, input: input)
        }
        validation.problems.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        if !validation.problems.isEmpty && !options.skipInvalid {
            throw IngestRejected(problems: validation.problems, count: validation.problemCount)
        }
        var summary: IngestSummary
        if validation.problemCount > rejectedWhileReading {
            // Lines found invalid only after reading (an id given twice) are in the spooled
            // batches: store from the input again, without them.
            summary = try store(inputs, rejected: validation.rejectedLines)
        } else {
            summary = try commitSpool(parts, bulk: bulk, rejected: validation.rejectedLines)
        }
        try StackBound.record(
            stackOccurrences, rejected: validation.rejectedLines, summary: summary, mark: stackMark, ledger: ledger)
        summary.rejected = validation.problemCount
        summary.problems = validation.problems
        return summary
    }

    struct Validation: Sendable {
        var problems: [IngestProblem] = []
        var problemCount = 0
        /// Every rejected line, kept only with `--skip-invalid`, which stores around them:
        /// a rejected run needs the count and the first 1,000.
        var rejectedLines = RejectedLines()
        var keepsRejectedLines = true

        mutating func reject(_ p: IngestProblem, input: Int) {
            problemCount += 1
            if problems.count < 1000 { problems.append(p) }
            if keepsRejectedLines { rejectedLines.insert(input: input, line: p.line) }
        }
    }

    /// A seen id: its hash and where it was.
    struct SeenID: Comparable, Sendable {
        var idHash: UInt64
        var input: Int32
        var line: Int32
        var offset: Int
        static func < (a: SeenID, b: SeenID) -> Bool {
            (a.idHash, a.input, a.line) < (b.idHash, b.input, b.line)
        }
    }

    /// Finds ids given twice in the input with different content; the later line is invalid.
    /// The ids come back from the spooled runs in hash order, so only one hash's ids are
    /// held at a time.
    private func checkRepeatedIDs(_ runs: [String], inputs: [Input], into v: inout Validation) throws {
        var group = [SeenID]()
        func check() throws {
            guard group.count > 1 else { return }
            // The hashes only narrow the search: re-read the lines and compare each with
            // the first earlier one of the same id.
            let events = try group.map { try Ingestor.event(at: $0.offset, in: inputs[Int($0.input)].path) }
            for k in group.indices.dropFirst() {
                guard let b = events[k], let j = (0..<k).first(where: { events[$0]?.envelope.id == b.envelope.id })
                else { continue }
                let (first, later) = (group[j], group[k])
                if events[j] != b {
                    let where1 = "\(inputs[Int(first.input)].displayName):\(first.line)"
                    v.reject(
                        IngestProblem(
                            file: inputs[Int(later.input)].displayName, line: Int(later.line), column: 1, field: "id",
                            message: "id \"\(b.envelope.id!)\" was already used at \(where1) with different content"),
                        input: Int(later.input))
                }
            }
        }
        try SeenIDRuns.merge(runs) { id in
            if let last = group.last, last.idHash != id.idHash {
                try check()
                group.removeAll(keepingCapacity: true)
            }
            group.append(id)
        }
        try check()
    }

    static func event(at offset: Int, in path: String) throws -> Event? {
        var result: Event?
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var line = [UInt8]()
        var at = offset
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(at)) }
            if n <= 0 { break }
            if let nl = buffer[0..<n].firstIndex(of: 0x0A) {
                line.append(contentsOf: buffer[0..<nl])
                break
            }
            line.append(contentsOf: buffer[0..<n])
            at += n
        }
        var decoder = EventDecoder()
        line.withUnsafeBytes { result = try? decoder.decode(line: LineReader.withoutMark($0, at: offset)) }
        return result
    }

    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes where b != 0x20 && b != 0x09 && b != 0x0D { return false }
        return true
    }

    /// FNV-1a over the UTF-8 bytes: stable across runs, unlike `Hasher`.
    static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}

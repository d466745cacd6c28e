import Dispatch
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
        let t0 = DispatchTime.now().uptimeNanoseconds
        var validation = try validate(inputs)
        let t1 = DispatchTime.now().uptimeNanoseconds
        defer { if getenv("STACKLEDGER_TRACE") != nil { printError("validated in \(Double(t1 - t0) / 1e9) s, stored in \(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9) s") } }
        validation.problems.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        if !validation.problems.isEmpty && !options.skipInvalid {
            throw IngestRejected(problems: validation.problems, count: validation.problemCount)
        }
        var summary = try store(inputs, rejected: validation.rejectedLines)
        summary.rejected = validation.problemCount
        summary.problems = validation.problems
        return summary
    }

    struct Validation: Sendable {
        var problems: [IngestProblem] = []
        var problemCount = 0
        /// (input index << 40 | line) of every rejected line.
        var rejectedLines = Set<Int64>()

        mutating func reject(_ p: IngestProblem, input: Int) {
            problemCount += 1
            if problems.count < 1000 { problems.append(p) }
            rejectedLines.insert(Int64(input) << 40 | Int64(p.line))
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

    func validate(_ inputs: [Input]) throws -> Validation {
        // Each input is cut into two parts validated at once (two cores).
        var split = [(input: Int, reader: LineReader)]()
        for (index, input) in inputs.enumerated() {
            for reader in try LineReader.split(input.path, parts: 2) { split.append((index, reader)) }
        }
        let parts = split
        let outcomes = Mutex([Int: Result<(Validation, [SeenID]), any Error>]())
        let lines = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
            let result = Result { try validate(parts[k].reader, input: parts[k].input, name: inputs[parts[k].input].displayName, lines: lines) }
            outcomes.withLock { $0[k] = result }
        }
        var v = Validation()
        var seen = [SeenID]()
        for k in 0..<parts.count {
            let (part, partSeen) = try outcomes.withLock { $0[k]! }.get()
            v.problemCount += part.problemCount
            v.problems += part.problems.prefix(1000 - min(1000, v.problems.count))
            v.rejectedLines.formUnion(part.rejectedLines)
            seen += partSeen
        }
        try checkRepeatedIDs(&seen, inputs: inputs, into: &v)
        return v
    }

    private func validate(_ reader: LineReader, input index: Int, name: String, lines: borrowing Atomic<Int>) throws -> (Validation, [SeenID]) {
        var v = Validation()
        var seen = [SeenID]()
        var decoder = EventDecoder()
        try ledger.read { store in
            try reader.forEachLine(onOverlong: { line, _ in
                v.reject(IngestProblem(file: name, line: line, column: 1, field: "",
                                       message: "the line exceeds the limit of 8 MiB"), input: index)
            }) { line, offset, bytes in
                if line & 0xFFFF == 0 { options.onValidated?(lines.add(0x10000, ordering: .relaxed).newValue) }
                if Ingestor.isBlank(bytes) { return true }
                do {
                    let event = try decoder.decode(line: bytes)
                    if let id = event.envelope.id {
                        seen.append(SeenID(idHash: Ingestor.stableHash(id), input: Int32(index), line: Int32(line), offset: offset))
                        if let storedSeq = try store.seq(forEventID: id) {
                            let stored = try store.withRecord(storedSeq) { try Event(record: $0) }
                            if stored != event {
                                v.reject(IngestProblem(file: name, line: line, column: 1, field: "id",
                                                       message: "id \"\(id)\" is already stored as sequence number \(storedSeq) with different content; give this event another id"), input: index)
                            }
                        }
                    }
                } catch let e as FieldError {
                    v.reject(IngestProblem(file: name, line: line, column: e.offset + 1, field: e.field, message: e.message), input: index)
                }
                return true
            }
        }
        return (v, seen)
    }

    /// Finds ids given twice in the input with different content; the later line is invalid.
    private func checkRepeatedIDs(_ seen: inout [SeenID], inputs: [Input], into v: inout Validation) throws {
        seen.sort()
        var i = 0
        while i < seen.count {
            var j = i + 1
            while j < seen.count && seen[j].idHash == seen[i].idHash { j += 1 }
            if j - i > 1 {
                let first = seen[i]
                for k in i + 1..<j {
                    let later = seen[k]
                    // The hashes only narrow the search: re-read both lines and compare them.
                    let a = try Ingestor.event(at: first.offset, in: inputs[Int(first.input)].path)
                    let b = try Ingestor.event(at: later.offset, in: inputs[Int(later.input)].path)
                    if let a, let b, a.envelope.id == b.envelope.id, a != b {
                        let where1 = "\(inputs[Int(first.input)].displayName):\(first.line)"
                        v.reject(IngestProblem(file: inputs[Int(later.input)].displayName, line: Int(later.line), column: 1, field: "id",
                                               message: "id \"\(b.envelope.id!)\" was already used at \(where1) with different content"),
                                 input: Int(later.input))
                    }
                }
            }
            i = j
        }
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
        line.withUnsafeBytes { result = try? decoder.decode(line: $0) }
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

public import Ledger
public import SmartStack

/// The bound on the stacks a device's events may create (`Event.maximumStacksPerDevice`),
/// checked before events are stored (by `ingest` line by line, by an import file by file)
/// against the stacks the store already names and the new events' own.
///
/// The names the store holds are kept as derived data (`sn` device 0x00 stack), up to the
/// sequence number of the mark `stackNames`; a writer first reads what later records name,
/// so the table can always be rebuilt from the log.
public enum StackBound {
    /// One line of the input that creates a stack.
    struct Occurrence: Sendable {
        var device: String
        var stack: String
        var input: Int32
        var line: Int32
    }

    static let prefix: [UInt8] = Array("sn".utf8)
    static let mark = "stackNames"

    static func key(device: String, stack: String) -> [UInt8] {
        prefix + Array(device.utf8) + [0] + Array(stack.utf8)
    }

    static func devicePrefix(_ device: String) -> [UInt8] { prefix + Array(device.utf8) + [0] }

    /// Brings the stored names up to the log's last record; returns the mark it reached.
    @discardableResult
    public static func catchUp(_ ledger: Ledger) throws -> UInt64 {
        guard ledger.canWriteDerived else { return 0 }
        var found = [[UInt8]]()
        let (mark, last) = try ledger.read { store in
            let mark = try store.derivedMark(Self.mark)
            let last = try store.lastSeq()
            if mark < last {
                try store.scan((mark + 1)...last) { record in
                    if Event.canCreateStacks(type: record.envelope.type) {
                        let event = try Event(record: record)
                        event.forEachCreatedStack { found.append(key(device: event.envelope.device, stack: $0)) }
                    }
                    return true
                }
            }
            return (mark, last)
        }
        guard mark < last else { return mark }
        try ledger.writeDerived { w in
            for k in found { try w.put(k, []) }
            try w.setMark(Self.mark, last)
        }
        return last
    }

    /// Rejects every line that would create a device's stack past the bound, naming the
    /// stack and the limit; the stacks are counted in input order, after the stored ones.
    static func check(_ occurrences: [Occurrence], inputs: [Ingestor.Input], ledger: Ledger) throws
        -> [(problem: IngestProblem, input: Int)]
    {
        guard !occurrences.isEmpty else { return [] }
        let byDevice = Dictionary(grouping: occurrences, by: \.device)
        var problems = [(problem: IngestProblem, input: Int)]()
        try ledger.read { store in
            for device in byDevice.keys.sorted() {
                let lines = byDevice[device]!.sorted { ($0.input, $0.line) < ($1.input, $1.line) }
                var fresh = [String]()
                var seen = Set<String>()
                for o in lines where seen.insert(o.stack).inserted {
                    if try store.derived(key(device: device, stack: o.stack)) == nil { fresh.append(o.stack) }
                }
                guard !fresh.isEmpty else { continue }
                var stored = 0
                try store.derivedEntries(prefix: devicePrefix(device)) { _, _ in stored += 1 }
                let room = max(0, Event.maximumStacksPerDevice - stored)
                guard fresh.count > room else { continue }
                let over = Set(fresh[room...])
                var rejected = Set<Int64>()
                for o in lines where over.contains(o.stack) {
                    guard rejected.insert(Int64(o.input) << 32 | Int64(o.line)).inserted else { continue }
                    problems.append(
                        (
                            IngestProblem(
                                file: inputs[Int(o.input)].displayName, line: Int(o.line), column: 1, field: "stack",
                                message:
                                    "stack \"\(o.stack)\" would be one more stack than device \"\(device)\" may have: a device's events create at most \(Event.maximumStacksPerDevice) stacks (the store names \(stored)); reuse a stack's id or give the stacks to another device"
                            ), Int(o.input)
                        ))
                }
            }
        }
        return problems
    }

    /// The stacks among `names` that would take their device past the bound, counted after
    /// the stored ones and `pending` (new stacks about to be stored with them), in order of
    /// device and id; empty when all fit.
    public static func excess(_ names: Set<StackName>, besides pending: Set<StackName>, in ledger: Ledger) throws
        -> [StackName]
    {
        guard !names.isEmpty, ledger.canWriteDerived else { return [] }
        var over = [StackName]()
        try ledger.read { store in
            for (device, stacks) in Dictionary(grouping: names.sorted(), by: \.device).sorted(by: { $0.key < $1.key }) {
                var fresh = [StackName]()
                for name in stacks where !pending.contains(name) {
                    if try store.derived(key(device: device, stack: name.stack)) == nil { fresh.append(name) }
                }
                guard !fresh.isEmpty else { continue }
                var stored = pending.reduce(0) { $0 + ($1.device == device ? 1 : 0) }
                try store.derivedEntries(prefix: devicePrefix(device)) { _, _ in stored += 1 }
                let room = max(0, Event.maximumStacksPerDevice - stored)
                if fresh.count > room { over += fresh[room...] }
            }
        }
        return over
    }

    /// Keeps that the store names `names` (once their events are stored).
    public static func remember(_ names: some Sequence<StackName>, in ledger: Ledger) throws {
        guard ledger.canWriteDerived else { return }
        try ledger.writeDerived { w in for n in names { try w.put(key(device: n.device, stack: n.stack), []) } }
    }

    /// Records the stacks the stored lines created; moves the mark past them when the
    /// ingest's records directly follow it (otherwise the next ingest reads them again).
    static func record(
        _ occurrences: [Occurrence], rejected: RejectedLines, summary: IngestSummary, mark: UInt64, ledger: Ledger
    ) throws {
        guard ledger.canWriteDerived, let first = summary.firstSeq, let last = summary.lastSeq else { return }
        try ledger.writeDerived { w in
            for o in occurrences where !rejected.contains(input: Int(o.input), line: Int(o.line)) {
                try w.put(key(device: o.device, stack: o.stack), [])
            }
            if try w.mark(Self.mark) == mark, first == mark + 1, last - first + 1 == UInt64(summary.stored) {
                try w.setMark(Self.mark, last)
            }
        }
    }
}

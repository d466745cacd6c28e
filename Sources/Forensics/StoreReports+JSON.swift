public import Ledger
public import SmartStack

extension LedgerStatistics {
    /// `stats --json`'s answer (docs/queries.md): counts by type and device, the time span,
    /// the bytes of the log and of the checkpoints apart, and the chain head.
    public func writeJSON(_ w: inout CanonicalWriter, tool: String) {
        w.beginObject()
        w.key("events")
        w.integer(events)
        w.key("byType")
        Self.writeCounts(&w, countsByType)
        w.key("devices")
        Self.writeCounts(&w, countsByDevice)
        w.key("firstTime")
        if let firstTime { w.time(firstTime) } else { w.null() }
        w.key("lastTime")
        if let lastTime { w.time(lastTime) } else { w.null() }
        w.key("batches")
        w.integer(batches)
        w.key("fileBytes")
        w.integer(fileBytes)
        w.key("usedBytes")
        w.integer(usedBytes)
        // The log's pages (records, indices, strings, batches, ids) and the checkpoints' apart.
        w.key("logBytes")
        w.integer(treeBytes)
        w.key("checkpointBytes")
        w.integer(derivedBytes)
        w.key("bytesPerEvent")
        w.number((bytesPerEvent * 10).rounded() / 10)
        w.key("head")
        head.writeJSON(&w)
        w.key("tool")
        w.string(tool)
        w.endObject()
    }

    private static func writeCounts(_ w: inout CanonicalWriter, _ counts: [String: Int]) {
        w.beginObject()
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) {
            w.key(key)
            w.integer(count)
        }
        w.endObject()
    }
}

extension Optional where Wrapped == ChainHead {
    /// A chain head as `{"seq": N, "sha256": "…"}`, or null.
    public func writeJSON(_ w: inout CanonicalWriter) {
        guard let head = self else { return w.null() }
        w.beginObject()
        w.key("seq")
        w.integer(Int(head.lastSeq))
        w.key("sha256")
        w.string(head.hashHex)
        w.endObject()
    }
}

/// What `verify` found: the log's own report, with the checks made beside it (checkpoints,
/// an expected head).
public struct StoreVerification: Sendable {
    /// Whether the store holds together.
    public var ok: Bool
    /// The chain head, stored or recomputed.
    public var head: ChainHead?
    /// Every problem found, in order.
    public var problems: [String]
    /// The first sequence number that does not verify.
    public var firstBadSeq: UInt64?
    /// Records, batches, strings and index entries checked, when the log could be read.
    public var counts: (records: Int, batches: Int, strings: Int, indexEntries: Int)?
    /// Checkpoints checked.
    public var checkpoints: Int

    /// A verification's findings.
    public init(
        ok: Bool, head: ChainHead?, problems: [String], firstBadSeq: UInt64?,
        counts: (records: Int, batches: Int, strings: Int, indexEntries: Int)?, checkpoints: Int
    ) {
        self.ok = ok
        self.head = head
        self.problems = problems
        self.firstBadSeq = firstBadSeq
        self.counts = counts
        self.checkpoints = checkpoints
    }

    /// A store that could not be checked at all: `problem` says why.
    public init(failure problem: String) {
        self.init(ok: false, head: nil, problems: [problem], firstBadSeq: nil, counts: nil, checkpoints: 0)
    }

    /// `verify --json`'s answer (docs/queries.md).
    public func writeJSON(_ w: inout CanonicalWriter, tool: String) {
        w.beginObject()
        w.key("ok")
        w.bool(ok)
        w.key("head")
        head.writeJSON(&w)
        if let counts {
            w.key("records")
            w.integer(counts.records)
            w.key("batches")
            w.integer(counts.batches)
            w.key("strings")
            w.integer(counts.strings)
            w.key("indexEntries")
            w.integer(counts.indexEntries)
            w.key("checkpoints")
            w.integer(checkpoints)
        }
        w.key("firstBadSeq")
        if let firstBadSeq { w.integer(Int(firstBadSeq)) } else { w.null() }
        w.key("problems")
        w.beginArray()
        for problem in problems { w.string(problem) }
        w.endArray()
        w.key("tool")
        w.string(tool)
        w.endObject()
    }
}

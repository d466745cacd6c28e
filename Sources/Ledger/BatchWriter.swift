import Crypto
import LMDBKit

#if canImport(Glibc)
    import Glibc
#endif

/// Appends records inside one write transaction and seals the batch with its chain link.
public final class BatchWriter {
    let txn: Transaction
    let dbs: StoreDatabases
    let interner: Interner
    let previousHash: [UInt8]
    let firstSeq: UInt64
    let recordedMicros: Int64
    @exclusivity(unchecked) private(set) var nextSeq: UInt64
    private let digests = BatchDigests()
    @exclusivity(unchecked) private var scratch = ByteWriter(capacity: 1024)
    @exclusivity(unchecked) private var keys: [IndexKeyID] = []
    /// The preparation epoch whose provisional string ids this transaction may trust (-1: none).
    var preparationEpoch = -1
    /// Whether a batch had to be encoded again in this transaction.
    var reencoded = false

    init(ledger: Ledger, txn: Transaction) throws {
        self.txn = txn
        self.dbs = ledger.databases
        self.interner = Interner(snapshot: try ledger.strings(in: txn))
        let batches = try txn.cursor(dbs.batches)
        var previous = BatchHeader.genesis
        var lastRecorded: Int64 = 0
        if let last = try batches.last() {
            guard let header = BatchHeader.decode(last.value) else {
                throw LedgerError(
                    .damaged, "the newest batch header fails its checksum; run `stackledger verify` before writing")
            }
            previous = header.hash
            lastRecorded = header.recordedMicros
        }
        let log = try txn.cursor(dbs.log)
        let lastSeq = try log.last().flatMap { StoreKeys.seqFrom($0.key) } ?? 0
        self.previousHash = previous
        self.firstSeq = lastSeq + 1
        self.nextSeq = lastSeq + 1
        self.recordedMicros = max(BatchWriter.now(), lastRecorded)
    }

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// Stores one event unless an identical one with the same id is stored.
    /// - Returns: the sequence number, or nil for a duplicate.
    /// - Throws: `LedgerError.idConflict` when the id is stored with other content.
    func append(_ event: some LedgerPayload) throws -> UInt64? {
        scratch.removeAll()
        let env = event.envelope
        RecordCodec.encode(event, envelope: env, interner: interner, into: &scratch, keys: &keys)
        let seq = nextSeq
        var seqKey = StoreKeys.seq(seq)
        if let id = env.id {
            let idKey = StoreKeys.eventID(id)
            let existing = try idKey.withUnsafeBytes { k in
                try withUnsafeBytes(of: &seqKey) { v in try txn.put(dbs.ids, key: k, value: v, flags: .noOverwrite) }
            }
            if let existing {
                return try scratch.bytes.withUnsafeBytes {
                    try resolveDuplicate(id: id, existingKey: existing, body: $0)
                }
            }
        }
        RecordCodec.seal(&scratch, seq: seq)
        try scratch.bytes.withUnsafeBytes { rec in
            try withUnsafeBytes(of: &seqKey) { k in _ = try txn.put(dbs.log, key: k, value: rec, flags: .append) }
            digests.addRecord(seq: seq, bytes: rec)
        }
        var device = StoreKeys.stringID(interner.id(for: env.device))
        var timeSeq = StoreKeys.timeSeq(env.time.microseconds, seq)
        try withUnsafeBytes(of: &device) { k in
            try withUnsafeBytes(of: &timeSeq) { v in
                try Self.putIndex { try txn.put(dbs.deviceTime, key: k, value: v, flags: $0) }
            }
        }
        for key in keys {
            try key.withKey { k in
                try withUnsafeBytes(of: &seqKey) { v in
                    try Self.putIndex { try txn.put(dbs.keys, key: k, value: v, flags: $0) }
                }
            }
        }
        nextSeq += 1
        return seq
    }

    /// Stores a prepared batch if the string table is what its preparation assumed.
    /// - Returns: the receipt, or nil when the batch must be encoded again.
    func append(prepared b: PreparedBatch, epoch: Int) throws -> AppendReceipt? {
        guard b.epoch == epoch || b.epoch == PreparedBatch.bulkEpoch, b.base == interner.snapshot.count else {
            return nil
        }
        for s in b.newStrings { _ = interner.id(for: s) }
        return try appendRecords(of: b)
    }

    /// Stores a prepared batch's records, whose string ids this transaction's table defines.
    func appendRecords(of b: PreparedBatch) throws -> AppendReceipt {
        var receipt = AppendReceipt(recordedAt: Timestamp(microseconds: recordedMicros))
        // One cursor a table for the whole batch: a key beside the cursor's last one (a
        // record's sequence number, a device's next time, a kind's next value) is found
        // without descending the tree again.
        let ids = try txn.cursor(dbs.ids)
        let log = try txn.cursor(dbs.log)
        let deviceTime = try txn.cursor(dbs.deviceTime)
        let domainKeys = try txn.cursor(dbs.keys)
        try b.bytes.withUnsafeBytes { arena in
            try b.idKeys.withUnsafeBytes { idArena in
                for r in b.records {
                    let body = UnsafeRawBufferPointer(rebasing: arena[r.start..<r.start + r.length])
                    let seq = nextSeq
                    var seqKey = StoreKeys.seq(seq)
                    if !r.idKey.isEmpty {
                        let existing = try withUnsafeBytes(of: &seqKey) { v in
                            try ids.put(
                                key: UnsafeRawBufferPointer(rebasing: idArena[r.idKey]), value: v, flags: .noOverwrite)
                        }
                        if let existing {
                            _ = try resolveDuplicate(id: r.id ?? "", existingKey: existing, body: body)
                            receipt.count(nil)
                            continue
                        }
                    }
                    let crc = RecordCodec.finish(r.bodyCRC, seq: seq).littleEndian
                    let slot = try withUnsafeBytes(of: &seqKey) { k in
                        try log.reserve(key: k, length: r.length + 4, flags: .append)
                    }
                    slot.copyMemory(from: body)
                    withUnsafeBytes(of: crc) {
                        slot.baseAddress!.advanced(by: r.length).copyMemory(from: $0.baseAddress!, byteCount: 4)
                    }
                    digests.addRecord(seq: seq, bytes: UnsafeRawBufferPointer(slot))
                    var device = StoreKeys.stringID(r.device)
                    var timeSeq = StoreKeys.timeSeq(r.micros, seq)
                    try withUnsafeBytes(of: &device) { k in
                        try withUnsafeBytes(of: &timeSeq) { v in
                            try Self.putIndex { try deviceTime.put(key: k, value: v, flags: $0) }
                        }
                    }
                    for key in b.keys[r.keys] {
                        try key.withKey { k in
                            try withUnsafeBytes(of: &seqKey) { v in
                                try Self.putIndex { try domainKeys.put(key: k, value: v, flags: $0) }
                            }
                        }
                    }
                    nextSeq += 1
                    receipt.count(seq)
                }
            }
        }
        return receipt
    }

    /// Defines the strings a bulk preparation assigned provisionally, when the store's
    /// table is the one it started from plus a prefix of its own strings (those defined by
    /// its earlier commits). Returns false, defining nothing, when another writer changed
    /// the table: then the provisional ids cannot be stored.
    func adoptProvisionalStrings(_ provisional: StringSnapshot, base: Int) -> Bool {
        let stored = interner.snapshot.count
        guard stored >= base, stored <= provisional.count else { return false }
        if stored > base {
            for id in (base + 1)...stored where interner.snapshot.strings[id] != provisional.strings[id] {
                return false
            }
        }
        if provisional.count > stored {
            for id in (stored + 1)...provisional.count { _ = interner.id(for: provisional.strings[id]) }
        }
        return interner.snapshot.count == provisional.count
    }

    /// Stores a prepared batch's events one by one through this transaction's own
    /// interner: each record is read back with the provisional strings it was encoded
    /// with, and `decode` makes the event again.
    func appendDecoding<E: LedgerPayload>(
        _ b: PreparedBatch, strings: StringSnapshot, decode: (RecordView) throws -> E
    ) throws -> AppendReceipt {
        var receipt = AppendReceipt(recordedAt: Timestamp(microseconds: recordedMicros))
        try b.forEachView(strings: strings) { view in receipt.count(try append(try decode(view))) }
        return receipt
    }

    /// Appends an index value at the end of its key's values when it sorts last (the
    /// usual case: times mostly ascend, sequence numbers always), else inserts it; `put`
    /// stores it with the flags given.
    private static func putIndex(_ put: (PutFlags) throws -> Void) throws {
        do {
            try put(.appendDuplicate)
        } catch LMDBError.keyExists {
            try put([])
        }
    }

    private func resolveDuplicate(id: String, existingKey: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) throws
        -> UInt64?
    {
        guard let existingSeq = StoreKeys.seqFrom(existingKey) else {
            throw LedgerError(.damaged, "the id table entry for \(id) is malformed; run `stackledger verify`")
        }
        var key = StoreKeys.seq(existingSeq)
        guard let stored = try withUnsafeBytes(of: &key, { try txn.get(dbs.log, key: $0) }), stored.count >= 4 else {
            throw LedgerError(
                .damaged,
                "the id \(id) points at sequence number \(existingSeq), which is missing; run `stackledger verify`")
        }
        let same = body.count == stored.count - 4 && memcmp(body.baseAddress!, stored.baseAddress!, body.count) == 0
        if same { return nil }
        // An imported record reached again through another path or command: the same
        // event but for its provenance, a duplicate.
        if let fresh = RecordCodec.withoutSource(body),
            let old = RecordCodec.withoutSource(UnsafeRawBufferPointer(rebasing: stored[0..<(stored.count - 4)])),
            fresh == old
        {
            return nil
        }
        throw LedgerError(
            .idConflict,
            "event id \"\(id)\" is already stored as sequence number \(existingSeq) with different content; give the new event another id"
        )
    }

    /// Whether anything was appended.
    var isEmpty: Bool { nextSeq == firstSeq }

    /// Writes the new string definitions, the batch header and the chain head.
    func seal() throws -> BatchHeader? {
        guard !isEmpty else { return nil }
        var id = interner.firstNewID
        for s in interner.added {
            let rec = StringRecord.encode(s, id: id)
            var key = StoreKeys.stringID(id)
            try withUnsafeBytes(of: &key) { k in
                try rec.withUnsafeBytes { v in
                    _ = try txn.put(dbs.strings, key: k, value: v, flags: .append)
                    digests.addString(id: id, bytes: v)
                }
            }
            id += 1
        }
        let count = UInt32(nextSeq - firstSeq)
        let stringCount = UInt32(interner.added.count)
        let hash = BatchHeader.chainHash(
            previous: previousHash, firstSeq: firstSeq, count: count, firstStringID: interner.firstNewID,
            stringCount: stringCount, recordedMicros: recordedMicros,
            stringsDigest: digests.strings.finalize(), recordsDigest: digests.records.finalize())
        let header = BatchHeader(
            firstSeq: firstSeq, count: count, firstStringID: interner.firstNewID,
            stringCount: stringCount, recordedMicros: recordedMicros,
            previousHash: previousHash, hash: hash)
        var key = StoreKeys.seq(firstSeq)
        try withUnsafeBytes(of: &key) { k in
            try header.encoded().withUnsafeBytes { v in _ = try txn.put(dbs.batches, key: k, value: v, flags: .append) }
        }
        try txn.put(dbs.meta, key: Array("head".utf8), value: ChainHead(header: header).encoded())
        return header
    }
}

/// The newest link of the hash chain: the last sequence number and the hash after it.
public struct ChainHead: Equatable, Sendable, CustomStringConvertible {
    /// The last sequence number covered.
    public var lastSeq: UInt64
    /// The first sequence number of the newest batch.
    public var batchFirstSeq: UInt64
    /// The chain hash after the newest batch.
    public var hash: [UInt8]

    init(lastSeq: UInt64, batchFirstSeq: UInt64, hash: [UInt8]) {
        self.lastSeq = lastSeq
        self.batchFirstSeq = batchFirstSeq
        self.hash = hash
    }

    init(header: BatchHeader) {
        self.init(lastSeq: header.lastSeq, batchFirstSeq: header.firstSeq, hash: header.hash)
    }

    /// The hash as lowercase hex.
    public var hashHex: String { hash.map { String(format2hex: $0) }.joined() }

    public var description: String { "seq \(lastSeq) sha256:\(hashHex)" }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 48)
        w.writeFixed(lastSeq)
        w.writeFixed(batchFirstSeq)
        w.write(contentsOf: hash)
        return w.bytes
    }

    static func decode(_ b: UnsafeRawBufferPointer) -> ChainHead? {
        guard b.count == 48 else { return nil }
        var r = ByteReader(b)
        guard let last = try? r.readFixed(UInt64.self), let first = try? r.readFixed(UInt64.self),
            let hash = try? r.readBytes(32)
        else { return nil }
        return ChainHead(lastSeq: last, batchFirstSeq: first, hash: Array(hash))
    }
}

extension String {
    init(format2hex byte: UInt8) {
        let digits: [Character] = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

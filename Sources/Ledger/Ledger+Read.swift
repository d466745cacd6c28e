import LMDBKit

/// Reads a store inside one read transaction. Get one from `Ledger.read`.
public final class LedgerReader {
    let ledger: Ledger
    let txn: Transaction
    private(set) var strings: StringSnapshot

    init(
        ledger: Ledger, txn: Transaction, tolerantOfDamagedStrings: Bool = false, privateStrings: Bool = false,
        copies: PrivateStrings? = nil
    ) throws {
        self.ledger = ledger
        self.txn = txn
        self.strings = try ledger.strings(in: txn, tolerant: tolerantOfDamagedStrings)
        if let copies {
            strings = strings.withPrivateCopies(copies)
        } else if privateStrings {
            strings.makePrivateCopies()
        }
    }

    var dbs: StoreDatabases { ledger.databases }

    /// How many records a device's read must have read before it hands the pages it
    /// passed back as it ends (`forEachRecord`): a long fold's stretches (1,024 records a
    /// batch) give them back; a query's short fold from its checkpoint (at most 512
    /// records, `rebuild`'s spacing) keeps them, for the next question to find. Not by the span of addresses the
    /// records lie in: a device's few records lie on pages scattered over the map, whose
    /// span would hand back far more than was read, to be faulted in again.
    static let releaseAfterRecords = 1_024
    /// How many bytes of the log a scan passes between handing pages back.
    static let releaseStride = 64 << 20
    /// How many bytes of the log's pages a device's read enters between handing them back.
    static let releaseEnteredStride = 16 << 20

    /// The newest sequence number, 0 for an empty log.
    public func lastSeq() throws -> UInt64 {
        try txn.cursor(dbs.log).last().flatMap { StoreKeys.seqFrom($0.key) } ?? 0
    }

    /// The stored chain head, nil for an empty store.
    public func chainHead() throws -> ChainHead? {
        try txn.get(dbs.meta, key: Array("head".utf8)).flatMap(ChainHead.decode)
    }

    /// Every batch header, oldest first.
    public func batches() throws -> [BatchHeader] {
        var out = [BatchHeader]()
        let c = try txn.cursor(dbs.batches)
        var e = try c.first()
        while let entry = e {
            guard let h = BatchHeader.decode(entry.value) else {
                throw LedgerError(.damaged, "a batch header fails its checksum; run `stackledger verify`")
            }
            out.append(h)
            e = try c.next()
        }
        return out
    }

    /// The batch holding `seq`, if any.
    public func batch(containing seq: UInt64) throws -> BatchHeader? {
        let c = try txn.cursor(dbs.batches)
        var key = StoreKeys.seq(seq)
        var entry = try withUnsafeBytes(of: &key) { try c.seek(atOrAfter: $0) }
        if let e = entry, StoreKeys.seqFrom(e.key) == seq { return BatchHeader.decode(e.value) }
        entry = entry == nil ? try c.last() : try c.previous()
        guard let e = entry, let h = BatchHeader.decode(e.value), h.firstSeq <= seq, seq <= h.lastSeq else {
            return nil
        }
        return h
    }

    /// Calls `body` for records with sequence numbers in `range`, in order, until it
    /// returns false.
    /// - Throws: `LedgerError.damaged` for a record that fails its CRC or cannot be decoded.
    public func scan(_ range: ClosedRange<UInt64> = 1...UInt64.max, _ body: (RecordView) throws -> Bool) throws {
        let c = try txn.cursor(dbs.log)
        var key = StoreKeys.seq(range.lowerBound)
        var entry = try withUnsafeBytes(of: &key) { try c.seek(atOrAfter: $0) }
        var batch = try batch(containing: range.lowerBound)
        let batchCursor = try txn.cursor(dbs.batches)
        if let b = batch {
            var k = StoreKeys.seq(b.firstSeq)
            _ = try withUnsafeBytes(of: &k) { try batchCursor.seek(exactly: $0) }
        }
        // The current batch's last seq and time, kept apart from its header so that the
        // loop copies no arrays.
        var batchLast = batch?.lastSeq
        var recorded = batch?.recordedMicros ?? 0
        // The log's pages it passed go back to the kernel every `releaseStride` bytes.
        var passed = MapSpan()
        while let e = entry {
            guard let seq = StoreKeys.seqFrom(e.key), seq <= range.upperBound else { break }
            if batchLast == nil || seq > batchLast! {
                if batchLast == nil {
                    batch = try batchCursor.first().flatMap { BatchHeader.decode($0.value) }
                } else {
                    batch = try batchCursor.next().flatMap { BatchHeader.decode($0.value) }
                }
                while let b = batch, b.lastSeq < seq {
                    batch = try batchCursor.next().flatMap { BatchHeader.decode($0.value) }
                }
                (batchLast, recorded) = (batch?.lastSeq, batch?.recordedMicros ?? 0)
            }
            let view = try makeView(seq: seq, bytes: e.value, recordedMicros: recorded)
            guard try body(view) else { return }
            passed.include(e.value)
            txn.releasePages(&passed, atLeast: LedgerReader.releaseStride)
            entry = try c.next()
        }
    }

    /// The record with sequence number `seq`, passed to `body`; nil if there is none.
    public func withRecord<T>(_ seq: UInt64, _ body: (RecordView) throws -> T) throws -> T? {
        var key = StoreKeys.seq(seq)
        guard let bytes = try withUnsafeBytes(of: &key, { try txn.get(dbs.log, key: $0) }) else { return nil }
        let recorded = try batch(containing: seq)?.recordedMicros ?? 0
        return try body(try makeView(seq: seq, bytes: bytes, recordedMicros: recorded))
    }

    func makeView(seq: UInt64, bytes: UnsafeRawBufferPointer, recordedMicros: Int64, identities: Bool = true) throws
        -> RecordView
    {
        guard RecordCodec.isIntact(bytes, seq: seq) else {
            throw LedgerError(.damaged, "record \(seq) fails its checksum; run `stackledger verify`")
        }
        let envelope: Envelope
        let header: RecordCodec.Header
        do {
            (envelope, header) = try RecordCodec.decodeHeader(bytes, strings: strings, identities: identities)
        } catch {
            strings = try ledger.strings(in: txn)
            do {
                (envelope, header) = try RecordCodec.decodeHeader(bytes, strings: strings, identities: identities)
            } catch {
                throw LedgerError(.damaged, "record \(seq) cannot be decoded: \(error)")
            }
        }
        return RecordView(
            seq: seq, recordedMicros: recordedMicros, envelope: envelope,
            header: header, strings: strings.strings)
    }

    /// Hands back every page of the store's map that this process holds to the kernel
    /// (they stay in its page cache): for long reads that jump about the store, every so
    /// often, so that the resident set stays small. Buffers read so far stay valid.
    public func releaseMappedPages() { txn.releaseAllPages() }

    /// Every device that has events, in first-seen order of its name's definition.
    public func devices() throws -> [String] {
        var out = [String]()
        let c = try txn.cursor(dbs.deviceTime)
        var e = try c.first()
        while let entry = e {
            let id = UInt32(bigEndian: entry.key.loadUnaligned(as: UInt32.self))
            if let s = strings.string(UInt64(id)) { out.append(s) }
            e = try c.nextKey()
        }
        return out
    }

    /// How many events `device` has, read from the index's count (no records are visited).
    public func eventCount(device: String) throws -> Int {
        try eventSpan(device: device)?.count ?? 0
    }

    /// How many events `device` has and the event times of its first and last, read from
    /// the ends of the index and its count (no records are visited); nil when it has none.
    public func eventSpan(device: String) throws -> (count: Int, first: Int64, last: Int64)? {
        guard let id = strings.id(of: device) else { return nil }
        let c = try txn.cursor(dbs.deviceTime)
        var key = StoreKeys.stringID(id)
        guard let head = try withUnsafeBytes(of: &key, { try c.seek(exactly: $0) }),
            let first = StoreKeys.decodeTimeSeq(head.value)
        else { return nil }
        let count = try c.duplicateCount()
        guard let tail = try c.lastDuplicate(), let last = StoreKeys.decodeTimeSeq(tail.value) else { return nil }
        return (count, first.0, last.0)
    }

    /// Sequence numbers of `device`'s events with event time in `[from, to)` (microseconds),
    /// in (time, seq) order.
    public func seqs(device: String, fromMicros: Int64 = 0, toMicros: Int64 = .max) throws -> [UInt64] {
        try timedSeqs(device: device, fromMicros: fromMicros, toMicros: toMicros).map(\.seq)
    }

    /// The event time and sequence number of `device`'s events with event time in
    /// `[from, to)` (microseconds), in (time, seq) order, read from the index alone.
    public func timedSeqs(device: String, fromMicros: Int64 = 0, toMicros: Int64 = .max) throws -> [(
        time: Int64, seq: UInt64
    )] {
        guard let id = strings.id(of: device) else { return [] }
        var out = [(time: Int64, seq: UInt64)]()
        let c = try txn.cursor(dbs.deviceTime)
        var key = StoreKeys.stringID(id)
        var start = StoreKeys.timeSeq(fromMicros, 0)
        var entry = try withUnsafeBytes(of: &key) { k in
            try withUnsafeBytes(of: &start) { v in try c.seek(key: k, valueAtOrAfter: v) }
        }
        while let e = entry, let (t, seq) = StoreKeys.decodeTimeSeq(e.value), t < toMicros {
            out.append((t, seq))
            entry = try c.nextDuplicate()
        }
        return out
    }

    /// Sequence numbers of events indexed under a domain key, ascending.
    public func seqs(indexKey: IndexKey) throws -> [UInt64] {
        guard let id = strings.id(of: indexKey.value) else { return [] }
        var out = [UInt64]()
        let c = try txn.cursor(dbs.keys)
        var entry = try IndexKeyID(namespace: indexKey.namespace, string: id).withKey { try c.seek(exactly: $0) }
        while let e = entry, e.value.count == 8 {
            out.append(UInt64(bigEndian: e.value.loadUnaligned(as: UInt64.self)))
            entry = try c.nextDuplicate()
        }
        return out
    }

    /// Whether any event is indexed under a domain key.
    public func hasIndexKey(_ indexKey: IndexKey) throws -> Bool {
        guard let id = strings.id(of: indexKey.value) else { return false }
        return try IndexKeyID(namespace: indexKey.namespace, string: id).withKey { try txn.get(dbs.keys, key: $0) }
            != nil
    }

    /// The sequence number stored for an event id, if any.
    public func seq(forEventID id: String) throws -> UInt64? {
        try txn.get(dbs.ids, key: StoreKeys.eventID(id)).flatMap(StoreKeys.seqFrom)
    }
}

extension Ledger {
    /// Runs `body` with a reader over one consistent snapshot of the store.
    ///
    /// With `privateStrings`, the reader's interned strings are copies of its own, so that
    /// threads reading at once do not contend on the shared ones' reference counts.
    @discardableResult
    public func read<T>(privateStrings: Bool = false, _ body: (LedgerReader) throws -> T) throws -> T {
        try read(privateStrings: privateStrings, copies: nil, body)
    }

    /// Runs `body` with a reader over one consistent snapshot of the store, whose interned
    /// strings are the thread's own `copies` (brought up to date first).
    @discardableResult
    public func read<T>(copies: PrivateStrings, _ body: (LedgerReader) throws -> T) throws -> T {
        try read(privateStrings: true, copies: copies, body)
    }

    private func read<T>(privateStrings: Bool, copies: PrivateStrings?, _ body: (LedgerReader) throws -> T) throws -> T
    {
        do {
            return try environment.read { txn in
                try body(try LedgerReader(ledger: self, txn: txn, privateStrings: privateStrings, copies: copies))
            }
        } catch let e as LMDBError {
            throw Ledger.describe(e, path: path)
        }
    }
}

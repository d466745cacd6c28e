import LMDBKit

/// Writes derived data (data computed from the log that can always be rebuilt, such as
/// engine checkpoints) inside one write transaction. Get one from `Ledger.writeDerived`.
public struct DerivedWriter {
    let txn: Transaction
    let db: Database
    let meta: Database
    let pageSize: Int

    /// Stores `value` under `key` (a long one as `DerivedChunks`).
    public func put(_ key: [UInt8], _ value: [UInt8]) throws {
        try DerivedChunks.put(txn, db, key: key, value: value, pageSize: pageSize)
    }

    /// Deletes every entry whose key starts with `prefix` and for which `shouldDelete`
    /// returns true; returns how many were deleted.
    @discardableResult
    public func delete(prefix: [UInt8], where shouldDelete: ([UInt8]) -> Bool = { _ in true }) throws -> Int {
        let c = try txn.cursor(db)
        var entry = try prefix.withUnsafeBytes { try c.seek(atOrAfter: $0) }
        var (deleted, numbers) = (0, [UInt64]())
        while let e = entry, e.key.starts(with: prefix) {
            if shouldDelete(Array(e.key)) {
                if e.value.count == DerivedChunks.pointerLength { numbers.append(DerivedChunks.number(of: e.value)) }
                try c.deleteCurrent()
                deleted += 1
                // LMDB leaves the cursor so that the next move yields the entry after the deleted one.
                entry = try c.next()
            } else {
                entry = try c.next()
            }
        }
        try DerivedChunks.deletePieces(txn, db, numbers: numbers)
        return deleted
    }

    /// The value stored under `key`, if any.
    public func get(_ key: [UInt8]) throws -> [UInt8]? {
        try key.withUnsafeBytes { k in try txn.get(db, key: k).map { try DerivedChunks.value(txn, db, stored: $0) } }
    }

    /// A mark set with `setMark`, 0 if none.
    public func mark(_ name: String) throws -> UInt64 {
        guard let v = try txn.get(meta, key: Array(("derived." + name).utf8)), v.count == 8 else { return 0 }
        return UInt64(bigEndian: v.loadUnaligned(as: UInt64.self))
    }

    /// A sequence number kept beside the derived data (e.g. how far checks have looked).
    public func setMark(_ name: String, _ value: UInt64) throws {
        _ = try txn.put(
            meta, key: Array(("derived." + name).utf8), value: withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }
}

extension Ledger {
    /// Whether this store can hold derived data (opened for writing).
    public var canWriteDerived: Bool { databases.derived != nil && !isReadOnly }

    /// Runs `body` in a write transaction over the derived data. Derived data is never
    /// part of the log, its chain or its checksums.
    /// - Throws: `LedgerError` for storage failures or a store opened read-only.
    public func writeDerived<T>(_ body: (DerivedWriter) throws -> T) throws -> T {
        guard let db = databases.derived, !isReadOnly else {
            throw LedgerError(.storage, "the store at \(path) is read-only; derived data cannot be saved")
        }
        do {
            return try environment.write { txn in
                try body(DerivedWriter(txn: txn, db: db, meta: databases.meta, pageSize: pageSize))
            }
        } catch let e as LMDBError {
            throw Ledger.describe(e, path: path)
        }
    }
}

extension LedgerReader {
    /// The derived entry with the greatest key at or before `key` that starts with
    /// `prefix`, if any.
    public func derived(atOrBefore key: [UInt8], prefix: [UInt8]) throws -> (key: [UInt8], value: [UInt8])? {
        guard let db = dbs.derived else { return nil }
        let c = try txn.cursor(db)
        var entry = try key.withUnsafeBytes { try c.seek(atOrAfter: $0) }
        if let e = entry, e.key.elementsEqual(key) { return (key, try DerivedChunks.value(txn, db, stored: e.value)) }
        entry = entry == nil ? try c.last() : try c.previous()
        guard let e = entry, e.key.starts(with: prefix) else { return nil }
        return (Array(e.key), try DerivedChunks.value(txn, db, stored: e.value))
    }

    /// The keys of the derived entries that start with `prefix` nearest `key`: the
    /// greatest at or before it and the least after it, read without their values.
    public func derivedKeys(around key: [UInt8], prefix: [UInt8]) throws -> (atOrBefore: [UInt8]?, after: [UInt8]?) {
        guard let db = dbs.derived else { return (nil, nil) }
        let c = try txn.cursor(db)
        func within(_ entry: (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)?) -> [UInt8]? {
            guard let entry, entry.key.starts(with: prefix) else { return nil }
            return Array(entry.key)
        }
        let found = try key.withUnsafeBytes { try c.seek(atOrAfter: $0) }
        if let found, found.key.elementsEqual(key) { return (key, within(try c.next())) }
        let after = within(found)
        return (within(found == nil ? try c.last() : try c.previous()), after)
    }

    /// The derived entry with exactly this key, if any.
    public func derived(_ key: [UInt8]) throws -> [UInt8]? {
        guard let db = dbs.derived else { return nil }
        return try key.withUnsafeBytes { k in
            try txn.get(db, key: k).map { try DerivedChunks.value(txn, db, stored: $0) }
        }
    }

    /// Every derived entry whose key starts with `prefix`, in key order.
    public func derivedEntries(prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void)
        throws
    {
        try derivedEntries(prefix: prefix, from: prefix) { k, v in
            try body(k, v)
            return true
        }
    }

    /// The derived entries whose keys start with `prefix`, from the first at or after
    /// `from`, in key order, until `body` returns false.
    public func derivedEntries(
        prefix: [UInt8], from: [UInt8],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        guard let db = dbs.derived else { return }
        let c = try txn.cursor(db)
        var entry = try from.withUnsafeBytes { try c.seek(atOrAfter: $0) }
        while let e = entry, e.key.starts(with: prefix) {
            let goOn =
                e.value.count == DerivedChunks.pointerLength
                ? try DerivedChunks.value(txn, db, stored: e.value).withUnsafeBytes { try body(e.key, $0) }
                : try body(e.key, e.value)
            guard goOn else { break }
            entry = try c.next()
        }
    }

    /// Whether any derived entry's key starts with `prefix`.
    public func hasDerived(prefix: [UInt8]) throws -> Bool {
        guard let db = dbs.derived else { return false }
        let c = try txn.cursor(db)
        return try prefix.withUnsafeBytes { try c.seek(atOrAfter: $0) }.map { $0.key.starts(with: prefix) } ?? false
    }

    /// A mark set with `DerivedWriter.setMark`, 0 if none.
    public func derivedMark(_ name: String) throws -> UInt64 {
        guard let v = try txn.get(dbs.meta, key: Array(("derived." + name).utf8)), v.count == 8 else { return 0 }
        return UInt64(bigEndian: v.loadUnaligned(as: UInt64.self))
    }

    /// Calls `body` with `device`'s records in (event time, seq) order, starting after
    /// `after` (exclusive) and ending with time `throughMicros` (inclusive), until it
    /// returns false. The views' `recordedMicros` is not resolved (0): use `batches()`.
    /// With `skippingDamaged`, records that fail their checksum are passed to `damaged`
    /// and skipped instead of ending the read with an error. With `identities` false, the
    /// envelopes leave out each event's `id` and `source` (nil), for readers that do not
    /// look at them, such as the engine's folds.
    public func forEachRecord(
        device: String, after: (time: Int64, seq: UInt64)?, throughMicros: Int64,
        skippingDamaged: Bool = false, damaged: (UInt64) -> Void = { _ in }, identities: Bool = true,
        _ body: (RecordView) throws -> Bool
    ) throws {
        guard let id = strings.id(of: device) else { return }
        let c = try txn.cursor(dbs.deviceTime)
        var key = StoreKeys.stringID(id)
        var start = after.map { StoreKeys.timeSeq($0.time, $0.seq) } ?? StoreKeys.timeSeq(.min, 0)
        var entry = try withUnsafeBytes(of: &key) { k in
            try withUnsafeBytes(of: &start) { v in try c.seek(key: k, valueAtOrAfter: v) }
        }
        if let a = after, let e = entry, let (t, s) = StoreKeys.decodeTimeSeq(e.value), t == a.time, s == a.seq {
            entry = try c.nextDuplicate()
        }
        // The device's records sit a few apart in the log, mostly on the leaf page the
        // last one was on: a cursor looks there first, where a get descends the tree.
        // Most follow the one before directly (a device's events arrive in runs): then
        // the cursor steps to it.
        let log = try txn.cursor(dbs.log)
        var last: UInt64?
        // What the read passed, in the index and in the log: the log's pages go back to
        // the kernel every `releaseEnteredStride` bytes of pages the read entered, and both when a
        // long read ends, so that a fold of the whole log keeps a small resident set.
        // Counted by records and pages entered, not by the span of addresses: a query's
        // few records lie on pages scattered over the map. (A record enters at most one
        // page, so a read that released pages on the way has read more than enough records.)
        var indexSpan = MapSpan()
        var logSpan = MapSpan()
        var records = 0
        defer {
            if records >= LedgerReader.releaseAfterRecords {
                txn.releasePages(indexSpan)
                txn.releasePages(logSpan)
            }
        }
        while let e = entry, let (t, seq) = StoreKeys.decodeTimeSeq(e.value), t <= throughMicros {
            indexSpan.include(e.value)
            var found: UnsafeRawBufferPointer?
            if let last, seq == last &+ 1, let step = try log.next(), StoreKeys.seqFrom(step.key) == seq {
                found = step.value
            } else {
                var k = StoreKeys.seq(seq)
                found = try withUnsafeBytes(of: &k, { try log.seek(exactly: $0) })?.value
            }
            guard let bytes = found else {
                throw LedgerError(
                    .damaged, "the (device, time) index names record \(seq), which is missing; run `stackledger verify`"
                )
            }
            last = seq
            logSpan.include(bytes)
            records += 1
            if skippingDamaged && !RecordCodec.isIntact(bytes, seq: seq) {
                damaged(seq)
            } else {
                guard try body(try makeView(seq: seq, bytes: bytes, recordedMicros: 0, identities: identities)) else {
                    return
                }
            }
            if logSpan.bytesEntered >= LedgerReader.releaseEnteredStride {
                txn.releasePages(logSpan)
                logSpan = MapSpan()
            }
            entry = try c.nextDuplicate()
        }
    }
}

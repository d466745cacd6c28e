import Crypto
import LMDBKit

extension Ledger {
    /// Re-checks every record's CRC, every string definition, the hash chain from the
    /// first batch to the stored head, and that every index entry matches the log.
    public func verify() throws -> VerifyReport {
        do {
            return try environment.read { txn in
                try Verifier(reader: try LedgerReader(ledger: self, txn: txn, tolerantOfDamagedStrings: true)).run()
            }
        } catch let e as LMDBError {
            throw Ledger.describe(e, path: path)
        }
    }

    /// The quick check run before answering queries: the stored head matches the newest
    /// batch, and the chain over at least the newest `records` records recomputes.
    /// - Returns: nil when it passes, else the problem.
    public func quickCheck(records: Int = 1000) throws -> VerifyReport.Problem? {
        try read { reader in try Verifier(reader: reader).quick(records: records) }
    }

    /// An identity of the newest commit: LMDB's id of the last committed write transaction,
    /// which every write through LMDB advances (the log's, a checkpoint's, anyone's). Equal
    /// identities mean the same committed store, so a quick check's result can be kept for it.
    public func commitIdentity() throws -> Int {
        try read { reader in reader.txn.id }
    }

    /// The chain head as it stood when sequence number `seq` was the newest: the hash of the
    /// batch that ends at `seq`; nil when no batch ends there.
    public func chainHead(endingAt seq: UInt64) throws -> ChainHead? {
        try read { reader in
            guard let h = try reader.batch(containing: seq), h.lastSeq == seq else { return nil }
            return ChainHead(header: h)
        }
    }

    /// The sequence numbers the quick check recomputes the chain over: the whole batches
    /// that hold the newest `records` records; nil for an empty store.
    public func quickCheckScope(records: Int = 1000) throws -> ClosedRange<UInt64>? {
        try read { reader in
            let c = try reader.txn.cursor(reader.dbs.batches)
            var covered = 0
            var newest: UInt64?
            var oldest: UInt64?
            var e = try c.last()
            while let entry = e, covered < records, let h = BatchHeader.decode(entry.value) {
                newest = newest ?? h.lastSeq
                oldest = h.firstSeq
                covered += Int(h.count)
                e = try c.previous()
            }
            guard let oldest, let newest else { return nil }
            return oldest...newest
        }
    }
}

struct Verifier {
    let reader: LedgerReader
    var dbs: StoreDatabases { reader.dbs }
    var txn: Transaction { reader.txn }

    func run() throws -> VerifyReport {
        var report = VerifyReport()
        report.head = try reader.chainHead()
        let strings = try checkStrings(&report)
        let log = try txn.cursor(dbs.log)
        var logEntry = try log.first()
        var expectedSeq: UInt64 = 1
        var previous = BatchHeader.genesis
        var lastHeader: BatchHeader?
        var idCount = 0
        var keyCount = 0
        let batchCursor = try txn.cursor(dbs.batches)
        var batchEntry = try batchCursor.first()
        let deviceCursor = try txn.cursor(dbs.deviceTime)
        let keyCursor = try txn.cursor(dbs.keys)
        // Every `releaseStride` bytes of log, the pages read so far (log and indices, which
        // share the file) go back to the kernel, so that the resident set stays small.
        var logPassed = MapSpan()
        var indexPassed = MapSpan()
        while let be = batchEntry {
            report.batches += 1
            guard let header = BatchHeader.decode(be.value), StoreKeys.seqFrom(be.key) == header.firstSeq else {
                report.report(
                    StoreKeys.seqFrom(be.key),
                    "the batch header stored under this sequence number is malformed or fails its checksum")
                break
            }
            if header.firstSeq != expectedSeq {
                report.report(
                    min(expectedSeq, header.firstSeq),
                    "the batch starting at \(header.firstSeq) does not follow the previous one (expected \(expectedSeq)): records are missing or reordered"
                )
            }
            if header.previousHash != previous {
                report.report(header.firstSeq, "the batch's link to the previous hash is broken")
            }
            let digests = BatchDigests()
            let problemsBefore = report.problems.count
            if header.stringCount > 0 {
                for id in header.firstStringID..<header.firstStringID + header.stringCount {
                    if let bytes = strings[id] { bytes.withUnsafeBytes { digests.addString(id: id, bytes: $0) } }
                }
            }
            for seq in header.firstSeq...header.lastSeq {
                guard let e = logEntry, let key = StoreKeys.seqFrom(e.key) else {
                    report.report(seq, "the record is missing (the log ends early)")
                    break
                }
                if key != seq {
                    report.report(
                        min(key, seq),
                        key > seq ? "the record is missing (next stored is \(key))" : "an unexpected record is stored")
                    if key > seq { continue }
                }
                report.records += 1
                digests.addRecord(seq: seq, bytes: e.value)
                logPassed.include(e.value)
                if !RecordCodec.isIntact(e.value, seq: seq) {
                    report.report(
                        seq, "the record fails its CRC-32C (changed bytes, or moved from another sequence number)")
                } else {
                    do {
                        let (env, h) = try RecordCodec.decodeHeader(e.value, strings: reader.strings)
                        try checkIndices(
                            seq: seq, envelope: env, header: h, device: deviceCursor, keys: keyCursor,
                            passed: &indexPassed, report: &report)
                        if env.id != nil { idCount += 1 }
                        keyCount += h.indexKeyIDs.count
                    } catch {
                        report.report(seq, "the record cannot be decoded: \(error)")
                    }
                }
                if logPassed.count >= LedgerReader.releaseStride {
                    txn.releasePages(logPassed)
                    txn.releasePages(indexPassed)
                    (logPassed, indexPassed) = (MapSpan(), MapSpan())
                }
                logEntry = try log.next()
            }
            let computed = BatchHeader.chainHash(
                previous: previous, firstSeq: header.firstSeq, count: header.count,
                firstStringID: header.firstStringID, stringCount: header.stringCount,
                recordedMicros: header.recordedMicros,
                stringsDigest: digests.strings.finalize(), recordsDigest: digests.records.finalize())
            if computed != header.hash {
                let firstBad = report.problems[problemsBefore...].compactMap(\.seq).min()
                report.report(
                    firstBad ?? header.firstSeq,
                    "the hash chain breaks in the batch of sequence numbers \(header.firstSeq)-\(header.lastSeq): one or more of its \(header.count) records or \(header.stringCount) string definitions were changed"
                )
            }
            // The next batch is checked against this one's stored hash, so that one changed
            // batch is named once, not with every batch after it.
            previous = computed == header.hash ? computed : header.hash
            expectedSeq = header.lastSeq + 1
            lastHeader = header
            batchEntry = try batchCursor.next()
        }
        if let e = logEntry, let key = StoreKeys.seqFrom(e.key) {
            report.report(key, "records are stored beyond the last committed batch (not covered by the hash chain)")
        }
        if let last = lastHeader {
            report.computedHead = ChainHead(lastSeq: last.lastSeq, batchFirstSeq: last.firstSeq, hash: previous)
        }
        if report.head != report.computedHead {
            let seq = min(report.head?.lastSeq ?? 0, report.computedHead?.lastSeq ?? 0) + 1
            report.report(
                seq,
                "the stored chain head (\(report.head?.description ?? "none")) does not match the log (\(report.computedHead?.description ?? "none")): records were added or removed at the end"
            )
        }
        try checkIndexTotals(records: report.records, keys: keyCount, ids: idCount, report: &report)
        return report
    }

    private func checkStrings(_ report: inout VerifyReport) throws -> [UInt32: [UInt8]] {
        var out = [UInt32: [UInt8]]()
        let c = try txn.cursor(dbs.strings)
        var e = try c.first()
        var expected: UInt32 = 1
        while let entry = e {
            let id = UInt32(bigEndian: entry.key.loadUnaligned(as: UInt32.self))
            if id != expected { report.report(nil, "string definition \(expected) is missing") }
            if StringRecord.decode(entry.value, id: id) == nil {
                report.report(nil, "string definition \(id) fails its checksum")
            }
            out[id] = Array(entry.value)
            report.strings += 1
            expected = id + 1
            e = try c.next()
        }
        return out
    }

    /// Checks the record's index entries; `passed` grows to cover the entries found.
    private func checkIndices(
        seq: UInt64, envelope env: Envelope, header: RecordCodec.Header, device: Cursor, keys: Cursor,
        passed indexPassed: inout MapSpan, report: inout VerifyReport
    ) throws {
        if let deviceID = reader.strings.id(of: env.device) {
            var k = StoreKeys.stringID(deviceID)
            var v = StoreKeys.timeSeq(env.time.microseconds, seq)
            let found = try withUnsafeBytes(of: &k) { k in
                try withUnsafeBytes(of: &v) { v in try device.seek(key: k, value: v) }
            }
            if let found {
                indexPassed.include(found.value)
            } else {
                report.report(seq, "the (device, time) index has no entry for the record")
            }
        }
        report.indexEntries += 1
        for keyID in header.indexKeyIDs {
            var v = StoreKeys.seq(seq)
            let found = try keyID.withKey { k in try withUnsafeBytes(of: &v) { v in try keys.seek(key: k, value: v) } }
            if let found {
                indexPassed.include(found.value)
            } else {
                report.report(seq, "the key index has no entry for \(reader.strings.strings[Int(keyID.string)])")
            }
            report.indexEntries += 1
        }
        if let id = env.id {
            let entry = try txn.get(dbs.ids, key: StoreKeys.eventID(id))
            if let entry { indexPassed.include(entry) }
            let stored = entry.flatMap(StoreKeys.seqFrom)
            if stored != seq {
                report.report(
                    seq, "the id table maps \"\(id)\" to \(stored.map(String.init) ?? "nothing"), not to this record")
            }
            report.indexEntries += 1
        }
    }

    private func checkIndexTotals(records: Int, keys: Int, ids: Int, report: inout VerifyReport) throws {
        let deviceEntries = try txn.statistics(dbs.deviceTime).entries
        if deviceEntries != records {
            report.report(
                try firstOrphan(dbs.deviceTime, seqOf: { StoreKeys.decodeTimeSeq($0)?.1 }),
                "the (device, time) index holds \(deviceEntries) entries for \(records) records")
        }
        let keyEntries = try txn.statistics(dbs.keys).entries
        if keyEntries != keys {
            report.report(
                try firstOrphan(dbs.keys, seqOf: StoreKeys.seqFrom),
                "the key index holds \(keyEntries) entries; the records name \(keys)")
        }
        let idEntries = try txn.statistics(dbs.ids).entries
        if idEntries != ids {
            report.report(
                try firstOrphan(dbs.ids, seqOf: StoreKeys.seqFrom),
                "the id table holds \(idEntries) entries for \(ids) records with ids")
        }
    }

    /// The smallest sequence number an index names that has no record (or nil).
    private func firstOrphan(_ db: Database, seqOf: (UnsafeRawBufferPointer) -> UInt64?) throws -> UInt64? {
        var smallest: UInt64?
        let c = try txn.cursor(db)
        var e = try c.first()
        while let entry = e {
            if let seq = seqOf(entry.value) {
                var k = StoreKeys.seq(seq)
                if try withUnsafeBytes(of: &k, { try txn.get(dbs.log, key: $0) }) == nil {
                    smallest = min(smallest ?? seq, seq)
                }
            }
            e = try c.next()
        }
        return smallest
    }

    func quick(records: Int) throws -> VerifyReport.Problem? {
        let head = try reader.chainHead()
        let c = try txn.cursor(dbs.batches)
        guard let lastEntry = try c.last() else {
            return head == nil ? nil : .init(seq: 1, message: "the store has a chain head but no batches")
        }
        var headers = [BatchHeader]()
        var covered = 0
        var e: Cursor.Entry? = lastEntry
        while let entry = e, covered < records {
            guard let h = BatchHeader.decode(entry.value) else {
                return .init(seq: StoreKeys.seqFrom(entry.key), message: "a batch header fails its checksum")
            }
            headers.append(h)
            covered += Int(h.count)
            e = try c.previous()
        }
        headers.reverse()
        guard let newest = headers.last, head == ChainHead(header: newest) else {
            return .init(
                seq: head.map { $0.lastSeq + 1 } ?? 1, message: "the stored chain head does not match the newest batch")
        }
        if try reader.lastSeq() != newest.lastSeq {
            return .init(seq: newest.lastSeq + 1, message: "the log's newest record is not the chain head's")
        }
        var previous = headers[0].previousHash
        let log = try txn.cursor(dbs.log)
        for h in headers {
            if h.previousHash != previous { return .init(seq: h.firstSeq, message: "the hash chain is broken") }
            let digests = BatchDigests()
            for id in h.firstStringID..<h.firstStringID + h.stringCount {
                var k = StoreKeys.stringID(id)
                guard let v = try withUnsafeBytes(of: &k, { try txn.get(dbs.strings, key: $0) }) else {
                    return .init(seq: h.firstSeq, message: "string definition \(id) is missing")
                }
                digests.addString(id: id, bytes: v)
            }
            var k = StoreKeys.seq(h.firstSeq)
            var entry = try withUnsafeBytes(of: &k) { try log.seek(exactly: $0) }
            for seq in h.firstSeq...h.lastSeq {
                guard let r = entry, StoreKeys.seqFrom(r.key) == seq else {
                    return .init(seq: seq, message: "the record is missing")
                }
                guard RecordCodec.isIntact(r.value, seq: seq) else {
                    return .init(seq: seq, message: "the record fails its CRC-32C")
                }
                digests.addRecord(seq: seq, bytes: r.value)
                entry = try log.next()
            }
            let computed = BatchHeader.chainHash(
                previous: previous, firstSeq: h.firstSeq, count: h.count, firstStringID: h.firstStringID,
                stringCount: h.stringCount, recordedMicros: h.recordedMicros,
                stringsDigest: digests.strings.finalize(), recordsDigest: digests.records.finalize())
            guard computed == h.hash else {
                return .init(seq: h.firstSeq, message: "the hash chain breaks in the batch \(h.firstSeq)-\(h.lastSeq)")
            }
            previous = computed
        }
        return nil
    }
}

import Foundation
import LMDBKit
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// Damage done to a store is caught by `verify`, which names the first bad sequence number.
@Suite("Tamper evidence")
struct TamperTests {
    /// A store with 3 commits of 40 events.
    func makeStore() throws -> TemporaryStore {
        let store = TemporaryStore()
        let ledger = try store.ledger()
        for seed in 0..<3 {
            var events = try randomEvents(40, seed: UInt64(seed + 50))
            for i in events.indices { events[i].envelope.id = "e-\(seed)-\(i)" }
            _ = try ledger.append(events)
        }
        return store
    }

    func verify(_ store: TemporaryStore) throws -> VerifyReport {
        try Ledger(path: store.path, options: .init(readOnly: true)).verify()
    }

    @Test("an intact store verifies and reports its chain head")
    func intact() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let report = try verify(store)
        #expect(report.isIntact)
        #expect(report.records == 120)
        #expect(report.head?.lastSeq == 120)
        #expect(report.head == report.computedHead)
        #expect(try Ledger(path: store.path).quickCheck() == nil)
    }

    /// Changes the key index's entries for its first key: `edit` gets that key's values.
    func editKeyIndex(_ store: TemporaryStore, _ edit: (Transaction, Database, [UInt8], [[UInt8]]) throws -> Void)
        throws
    {
        let tamper = try Tamper(store.path)
        try tamper.env.write { txn in
            let db = try txn.openDatabase("index.keys", flags: [.duplicateSort, .duplicateFixed])
            let cursor = try txn.cursor(db)
            let first = try #require(try cursor.first())
            let key = Array(first.key)
            var values = [Array(first.value)]
            while let next = try cursor.nextDuplicate() { values.append(Array(next.value)) }
            try edit(txn, db, key, values)
        }
    }

    @Test(
        "a key index entry missing, extra, or pointing at another record is caught by verify, and not by the quick check"
    )
    func keyIndexDamage() throws {
        for damage in ["missing", "extra", "elsewhere"] {
            let store = try makeStore()
            defer { store.cleanup() }
            try editKeyIndex(store) { txn, db, key, values in
                let value = values[values.count / 2]
                let other = values.contains(Tamper.key(1)) ? Tamper.key(120) : Tamper.key(1)
                switch damage {
                case "missing":
                    _ = try key.withUnsafeBytes { k in
                        try value.withUnsafeBytes { v in try txn.delete(db, key: k, value: v) }
                    }
                case "extra":
                    _ = try txn.put(db, key: key, value: Tamper.key(9_999))
                default:
                    _ = try key.withUnsafeBytes { k in
                        try value.withUnsafeBytes { v in try txn.delete(db, key: k, value: v) }
                    }
                    _ = try txn.put(db, key: key, value: other)
                }
            }
            let report = try verify(store)
            #expect(!report.isIntact, "\(damage)")
            #expect(report.firstBadSeq != nil || !report.problems.isEmpty, "\(damage)")
            // The quick check covers the chain over the newest records, not the indices.
            #expect(try Ledger(path: store.path).quickCheck() == nil, "\(damage)")
        }
    }

    @Test("a flipped byte fails the record's CRC at its sequence number")
    func flippedByte() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        var rec = try tamper.record(57)
        rec[rec.count / 2] ^= 0x40
        try tamper.setRecord(57, rec)
        let report = try verify(store)
        #expect(!report.isIntact)
        #expect(report.firstBadSeq == 57)
    }

    @Test("a change with a recomputed CRC breaks the hash chain in its batch")
    func forgedRecord() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        var rec = try tamper.record(90)
        rec[10] ^= 0x01 // the event time
        try tamper.setRecord(90, Tamper.resealed(rec, seq: 90))
        let report = try verify(store)
        #expect(!report.isIntact)
        let first = try #require(report.firstBadSeq)
        #expect((81...90).contains(first))
        #expect(try Ledger(path: store.path).quickCheck() != nil)
    }

    @Test("the commit identity stays through reads and advances with every write through LMDB, a forger's too")
    func commitIdentity() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let ledger = try Ledger(path: store.path)
        let before = try ledger.commitIdentity()
        #expect(try ledger.quickCheck() == nil)
        #expect(try ledger.commitIdentity() == before)
        let tamper = try Tamper(store.path)
        var rec = try tamper.record(90)
        rec[10] ^= 0x01
        try tamper.setRecord(90, Tamper.resealed(rec, seq: 90))
        #expect(try ledger.commitIdentity() > before)
    }

    @Test("a rewritten old record is named by its batch alone: no later batch, no claim about the end")
    func forgedRecordNamesItsBatch() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        var rec = try tamper.record(25)
        rec[10] ^= 0x01
        try tamper.setRecord(25, Tamper.resealed(rec, seq: 25))
        let report = try verify(store)
        #expect(report.problems.count == 1, "\(report.problems)")
        let problem = try #require(report.problems.first)
        #expect(
            problem.message.contains("the hash chain breaks in the batch of sequence numbers 1-40"),
            "\(problem.message)")
        #expect(!report.problems.contains { $0.message.contains("added or removed") })
    }

    @Test("a record deleted through LMDB is named")
    func deletedRecord() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        try Tamper(store.path).deleteRecord(33)
        let report = try verify(store)
        #expect(report.firstBadSeq == 33)
    }

    @Test("two records swapped fail their CRCs (the sequence number is in the checksum)")
    func reordered() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        let a = try tamper.record(12)
        let b = try tamper.record(13)
        try tamper.setRecord(12, b)
        try tamper.setRecord(13, a)
        let report = try verify(store)
        #expect(report.firstBadSeq == 12)
    }

    @Test("records removed from the end no longer match the chain head")
    func truncatedLog() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        try Tamper(store.path).deleteRecord(120)
        let report = try verify(store)
        #expect(report.firstBadSeq == 120)
        #expect(try Ledger(path: store.path).quickCheck() != nil)
    }

    @Test("a rewritten string definition is caught")
    func rewrittenString() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        var s = try tamper.string(3)
        s[1] ^= 0x20
        try tamper.setString(3, s)
        #expect(try !verify(store).isIntact)
    }

    @Test("a truncated data file is refused before it is read (no SIGBUS)")
    func truncatedFile() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let path = store.path + "/data.mdb"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        #expect {
            _ = try Ledger(path: store.path, options: .init(readOnly: true))
        } throws: { ($0 as? LedgerError)?.kind == .damaged }
    }

    @Test("an empty data file, left by a writer stopped before its first write, is no store when read")
    func emptyDataFile() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        #expect(truncate(store.path + "/data.mdb", 0) == 0)
        #expect {
            _ = try Ledger(path: store.path, options: .init(readOnly: true))
        } throws: { e in
            guard let e = e as? LedgerError else { return false }
            return e.kind == .missing && e.message.contains("no StackLedger store")
        }
        // Opened for writing, it becomes a new, empty store.
        #expect(try Ledger(path: store.path).statistics().events == 0)
    }

    @Test("a store written by a newer format is refused with a clear message")
    func newerFormat() throws {
        let store = try makeStore()
        defer { store.cleanup() }
        let tamper = try Tamper(store.path)
        try tamper.env.write { txn in
            let meta = try txn.openDatabase("meta")
            try txn.put(
                meta, key: Array("format".utf8), value: withUnsafeBytes(of: UInt32(2).littleEndian) { Array($0) })
        }
        #expect {
            _ = try Ledger(path: store.path, options: .init(readOnly: true))
        } throws: { e in
            guard let e = e as? LedgerError else { return false }
            return e.kind == .newerFormat && e.message.contains("newer StackLedger")
        }
    }
}

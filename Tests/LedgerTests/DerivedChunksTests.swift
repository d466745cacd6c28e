import Foundation
import LMDBKit
import Testing

@testable import Ledger

/// Long derived values are stored as pieces packed on leaf pages, and read back whole.
@Suite("Derived values stored as pieces")
struct DerivedChunksTests {
    /// `count` bytes that differ from value to value.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return UInt8(truncatingIfNeeded: x)
        }
    }

    static func key(_ n: Int) -> [UInt8] {
        Array("cp/test/".utf8) + withUnsafeBytes(of: UInt64(n).bigEndian) { Array($0) }
    }

    /// The derived database's statistics and how many of its keys are pieces'.
    static func layout(_ ledger: Ledger) throws -> (stats: Database.Statistics, pieces: Int) {
        try ledger.environment.read { txn in
            let db = try txn.openDatabase("derived")
            var pieces = 0
            let c = try txn.cursor(db)
            var e = try c.first()
            while let entry = e {
                if entry.key.first == DerivedChunks.root { pieces += 1 }
                e = try c.next()
            }
            return (try txn.statistics(db), pieces)
        }
    }

    @Test("values of every length read back whole, by key, by scan and at or before a key")
    func roundTrip() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let lengths = [0, 1, 8, 12, 13, 1_024, 1_025, 4_096, 4_553, 40_000]
        let values = lengths.enumerated().map { Self.bytes($1, seed: UInt64($0 + 1)) }
        try ledger.writeDerived { w in
            for (n, v) in values.enumerated() { try w.put(Self.key(n), v) }
        }
        try ledger.read { r in
            for (n, v) in values.enumerated() {
                #expect(try r.derived(Self.key(n)) == v, "length \(v.count)")
                let found = try #require(try r.derived(atOrBefore: Self.key(n), prefix: Array("cp/test/".utf8)))
                #expect(found.key == Self.key(n) && found.value == v)
            }
            var scanned = [[UInt8]]()
            try r.derivedEntries(prefix: Array("cp/test/".utf8)) { _, v in scanned.append(Array(v)) }
            #expect(scanned == values)
        }
        #expect(try ledger.writeDerived { w in try w.get(Self.key(9)) } == values[9])
        // 12 bytes (a pointer's length) and more than 1,024 are stored as pieces.
        let pieceLength = DerivedChunks.pieceLength(pageSize: ledger.pageSize)
        let expected = values.filter { $0.count == 12 || $0.count > 1_024 }
            .map { ($0.count + pieceLength - 1) / pieceLength }.reduce(0, +)
        #expect(try Self.layout(ledger).pieces == expected)
    }

    @Test("replacing or deleting a value deletes its pieces; a missing piece gives an empty value")
    func replaceAndDelete() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        try ledger.writeDerived { w in
            try w.put(Self.key(1), Self.bytes(9_000, seed: 1))
            try w.put(Self.key(2), Self.bytes(9_000, seed: 2))
        }
        let piecesOfOne = try Self.layout(ledger).pieces / 2
        #expect(piecesOfOne > 1)
        try ledger.writeDerived { w in try w.put(Self.key(1), Self.bytes(100, seed: 3)) }
        #expect(try Self.layout(ledger).pieces == piecesOfOne)
        #expect(try ledger.read { r in try r.derived(Self.key(1)) } == Self.bytes(100, seed: 3))
        #expect(try ledger.writeDerived { w in try w.delete(prefix: Self.key(2)) } == 1)
        #expect(try Self.layout(ledger).pieces == 0)

        // A piece lost (a damaged store): the value reads as empty, which its own check refuses.
        try ledger.writeDerived { w in try w.put(Self.key(3), Self.bytes(9_000, seed: 4)) }
        try ledger.environment.write { txn in
            let db = try txn.openDatabase("derived")
            let c = try txn.cursor(db)
            _ = try c.last()
            try c.deleteCurrent()
        }
        #expect(try ledger.read { r in try r.derived(Self.key(3)) } == [])
    }

    @Test("checkpoint-sized values fill their pages: no overflow pages, and pages at least 80 % full")
    func packed() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var stored = 0
        for batch in 0..<20 {
            try ledger.writeDerived { w in
                for n in 0..<50 {
                    // Lengths like a checkpoint's: 3 to 6 KB, and now and then 30 KB.
                    let i = batch * 50 + n
                    let length = i % 16 == 0 ? 30_000 : 3_000 + (i * 137) % 3_000
                    stored += length
                    try w.put(Self.key(i), Self.bytes(length, seed: UInt64(i)))
                }
            }
        }
        let (stats, _) = try Self.layout(ledger)
        #expect(stats.overflowPages == 0)
        let fill = Double(stored) / Double(stats.pages * ledger.pageSize)
        #expect(fill >= 0.8, "pages \(stats.pages), bytes \(stored), fill \(fill)")
    }
}

import Foundation
import LMDBKit
import Testing

@Suite("LMDB wrapper")
struct LMDBKitTests {
    func withEnvironment(_ options: Environment.Options = .init(), _ body: (Environment) throws -> Void) throws {
        let dir = NSTemporaryDirectory() + "lmdbkit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(try Environment(path: dir, options: options))
    }

    @Test("a write commits on return and aborts on throw")
    func transactions() throws {
        struct Boom: Error {}
        try withEnvironment { env in
            let db = try env.write { try $0.openDatabase("t", flags: .create) }
            try env.write { try $0.put(db, key: [1], value: [10]) }
            #expect(throws: Boom.self) {
                try env.write { txn in
                    try txn.put(db, key: [2], value: [20])
                    throw Boom()
                }
            }
            try env.read { (txn) throws in
                #expect(try txn.get(db, key: [1]).map(Array.init) == [10])
                #expect(try txn.get(db, key: [2]) == nil)
            }
        }
    }

    @Test("errors keep their code and match by name")
    func errors() throws {
        try withEnvironment { env in
            let db = try env.write { try $0.openDatabase("t", flags: .create) }
            try env.write { try $0.put(db, key: [1], value: [1]) }
            do {
                try env.write { txn in
                    try [UInt8(1)].withUnsafeBytes { k in
                        try [UInt8(0)].withUnsafeBytes { v in _ = try txn.put(db, key: k, value: v, flags: .append) }
                    }
                }
                Issue.record("appending a smaller key must fail")
            } catch LMDBError.keyExists {
            }
            #expect(LMDBError.mapFull.description.contains("MDB_MAP_FULL"))
        }
    }

    @Test("duplicate-sorted databases keep values in order and cursors walk them")
    func duplicates() throws {
        try withEnvironment { env in
            let db = try env.write { try $0.openDatabase("d", flags: [.create, .duplicateSort, .duplicateFixed]) }
            try env.write { txn in
                for v: UInt8 in [5, 1, 3] { try txn.put(db, key: [9], value: [0, v]) }
            }
            try env.read { (txn) throws in
                let c = try txn.cursor(db)
                var seen = [UInt8]()
                var e = try [UInt8(9)].withUnsafeBytes { try c.seek(exactly: $0) }
                while let entry = e {
                    seen.append(entry.value[1])
                    e = try c.nextDuplicate()
                }
                #expect(seen == [1, 3, 5])
                #expect(try txn.statistics(db).entries == 3)
            }
        }
    }

    @Test("a cursor kept open puts, reserves and refuses a present key as mdb_put does")
    func cursorPuts() throws {
        try withEnvironment { env in
            let db = try env.write { try $0.openDatabase("c", flags: .create) }
            try env.write { txn in
                let c = try txn.cursor(db)
                for k: UInt8 in [4, 2, 9, 3] {
                    let existing = try [k].withUnsafeBytes { key in
                        try [k &* 10].withUnsafeBytes { value in
                            try c.put(key: key, value: value, flags: .noOverwrite).map(Array.init)
                        }
                    }
                    #expect(existing == nil)
                }
                let existing = try [UInt8(2)].withUnsafeBytes { key in
                    try [UInt8(99)].withUnsafeBytes { value in
                        try c.put(key: key, value: value, flags: .noOverwrite).map(Array.init)
                    }
                }
                #expect(existing == [20])
                let slot = try [UInt8(10)].withUnsafeBytes { try c.reserve(key: $0, length: 3, flags: .append) }
                slot.copyBytes(from: [7, 8, 9])
                #expect(throws: LMDBError.keyExists) {
                    try [UInt8(5)].withUnsafeBytes { _ = try c.reserve(key: $0, length: 1, flags: .append) }
                }
            }
            try env.read { (txn) throws in
                #expect(try txn.get(db, key: [2]).map(Array.init) == [20])
                #expect(try txn.get(db, key: [10]).map(Array.init) == [7, 8, 9])
                #expect(try txn.get(db, key: [5]) == nil)
                #expect(try txn.statistics(db).entries == 5)
            }
        }
    }

    @Test("a full map grows and the write is retried")
    func growth() throws {
        try withEnvironment(.init(initialMapSize: 32 << 10)) { env in
            let db = try env.write { try $0.openDatabase("g", flags: .create) }
            let before = env.info().mapSize
            let value = [UInt8](repeating: 7, count: 1000)
            for i in 0..<2000 {
                try env.write {
                    try $0.put(db, key: withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }, value: value)
                }
            }
            #expect(env.info().mapSize > before)
            let n = try env.read { try $0.statistics(db).entries }
            #expect(n == 2000)
        }
    }

    @Test("without growth a full map throws mapFull")
    func noGrowth() throws {
        try withEnvironment(.init(initialMapSize: 32 << 10, growsAutomatically: false)) { env in
            let db = try env.write { try $0.openDatabase("g", flags: .create) }
            let value = [UInt8](repeating: 7, count: 1000)
            #expect(throws: LMDBError.mapFull) {
                for i in 0..<2000 {
                    try env.write {
                        try $0.put(db, key: withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }, value: value)
                    }
                }
            }
        }
    }
}

import Foundation
import LMDBKit
import Ledger
import SmartStack
import StackLedgerTesting

/// A fresh store directory under the temporary directory, removed by `cleanup()`.
struct TemporaryStore {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "stackledger-test-" + UUID().uuidString
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }

    func ledger(mapSize: Int = 1 << 20, grows: Bool = true) throws -> Ledger {
        try Ledger(path: path, options: .init(environment: .init(initialMapSize: mapSize, growsAutomatically: grows)))
    }
}

/// Random valid events, decoded.
func randomEvents(_ count: Int, seed: UInt64) throws -> [Event] {
    var random = RandomEvents(seed: seed)
    var decoder = EventDecoder()
    return try (0..<count).map { try decoder.decode(random.line(seqHint: $0)) }
}

/// Opens a store's raw LMDB environment, to damage it the way an attacker would.
struct Tamper {
    let env: Environment

    init(_ path: String) throws {
        env = try Environment(path: path, options: .init(initialMapSize: 64 << 20))
    }

    static func key(_ seq: UInt64) -> [UInt8] { withUnsafeBytes(of: seq.bigEndian) { Array($0) } }

    func record(_ seq: UInt64) throws -> [UInt8] {
        try env.read { (txn) throws in
            let db = try txn.openDatabase("log")
            return Array(try txn.get(db, key: Tamper.key(seq))!)
        }
    }

    func setRecord(_ seq: UInt64, _ bytes: [UInt8]) throws {
        try env.write { txn in
            let db = try txn.openDatabase("log")
            try txn.put(db, key: Tamper.key(seq), value: bytes)
        }
    }

    func deleteRecord(_ seq: UInt64) throws {
        try env.write { txn in
            let db = try txn.openDatabase("log")
            _ = try Tamper.key(seq).withUnsafeBytes { try txn.delete(db, key: $0) }
        }
    }

    func setString(_ id: UInt32, _ bytes: [UInt8]) throws {
        try env.write { txn in
            let db = try txn.openDatabase("strings")
            try txn.put(db, key: withUnsafeBytes(of: id.bigEndian) { Array($0) }, value: bytes)
        }
    }

    func string(_ id: UInt32) throws -> [UInt8] {
        try env.read { (txn) throws in
            let db = try txn.openDatabase("strings")
            return Array(try txn.get(db, key: withUnsafeBytes(of: id.bigEndian) { Array($0) })!)
        }
    }

    /// Recomputes a record's CRC-32C after changing it, as a careful forger would.
    static func resealed(_ bytes: [UInt8], seq: UInt64) -> [UInt8] {
        var body = Array(bytes.dropLast(4))
        var crc = body.withUnsafeBytes { CRC32C.update(0, $0) }
        crc = withUnsafeBytes(of: seq.littleEndian) { CRC32C.update(crc, $0) }
        withUnsafeBytes(of: crc.littleEndian) { body.append(contentsOf: $0) }
        return body
    }
}

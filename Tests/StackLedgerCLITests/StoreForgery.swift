import LMDBKit

/// Changes a stored record behind the ledger's back, through LMDB, as a forger would.
enum StoreForgery {
    struct MissingRecord: Error { var seq: UInt64 }

    /// Flips one bit in the middle of record `seq` of the store at `path`; a store without
    /// that record is an error.
    static func flipBit(inRecord seq: UInt64, store path: String) throws {
        let env = try Environment(path: path, options: .init(initialMapSize: 64 << 20))
        let key = withUnsafeBytes(of: seq.bigEndian) { Array($0) }
        try env.write { txn in
            let db = try txn.openDatabase("log")
            guard var bytes = try txn.get(db, key: key).map(Array.init) else { throw MissingRecord(seq: seq) }
            bytes[bytes.count / 2] ^= 0x01
            _ = try txn.put(db, key: key, value: bytes)
        }
    }
}

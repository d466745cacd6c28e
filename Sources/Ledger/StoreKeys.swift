import Crypto
import LMDBKit

/// How keys and values of the store's databases are laid out (all big-endian keys, so
/// LMDB's byte order is numeric order).
enum StoreKeys {
    @inline(__always) static func seq(_ s: UInt64) -> UInt64 { s.bigEndian }

    static func seqFrom(_ key: UnsafeRawBufferPointer) -> UInt64? {
        guard key.count == 8 else { return nil }
        return UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))
    }

    @inline(__always) static func stringID(_ id: UInt32) -> UInt32 { id.bigEndian }

    /// The (device, time) index value: time and sequence number, both big-endian.
    @inline(__always) static func timeSeq(_ micros: Int64, _ seq: UInt64) -> (UInt64, UInt64) {
        (UInt64(bitPattern: micros ^ Int64.min).bigEndian, seq.bigEndian)
    }

    static func decodeTimeSeq(_ v: UnsafeRawBufferPointer) -> (Int64, UInt64)? {
        guard v.count == 16 else { return nil }
        let t = Int64(bitPattern: UInt64(bigEndian: v.loadUnaligned(as: UInt64.self))) ^ Int64.min
        let s = UInt64(bigEndian: v.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return (t, s)
    }

    /// The key of an event id: its UTF-8 bytes, or for ids longer than LMDB's key limit
    /// allows, 0xFF and the id's SHA-256 (0xFF never starts UTF-8 text).
    static func eventID(_ id: String) -> [UInt8] {
        let utf8 = Array(id.utf8)
        if utf8.count <= 480 && !utf8.isEmpty { return utf8 }
        return [0xFF] + Array(SHA256.hash(data: utf8))
    }
}

/// The named databases of a store.
struct StoreDatabases: Sendable {
    static let names = ["meta", "log", "strings", "batches", "index.deviceTime", "index.keys", "ids", "derived"]
    var meta, log, strings, batches, deviceTime, keys, ids: Database
    /// Data computed from the log that can be rebuilt (engine checkpoints); nil in a
    /// read-only store that has none yet.
    var derived: Database?
}

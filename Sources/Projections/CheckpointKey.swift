import Crypto
import Ledger
import SmartStack

/// How checkpoints are keyed in the store's derived data:
/// `cp` device 0x00 engine(8) time(8) seq(8), all big-endian, so that the newest
/// checkpoint at or before an instant is one seek away.
struct CheckpointKey {
    static let root: [UInt8] = Array("cp".utf8)

    /// The 8 bytes that name an engine version and a policy: a policy override or a new
    /// engine never reuses another's checkpoints.
    static func engineTag(_ policy: Policy) -> [UInt8] {
        let text = "\(DeviceEngine.engineVersion)\n\(policy.digest)"
        return Array(SHA256.hash(data: Array(text.utf8)).prefix(8))
    }

    static func devicePrefix(_ device: String) -> [UInt8] { root + Array(device.utf8) + [0] }

    static func prefix(_ device: String, _ tag: [UInt8]) -> [UInt8] { devicePrefix(device) + tag }

    static func key(_ device: String, _ tag: [UInt8], time: Int64, seq: UInt64) -> [UInt8] {
        var out = prefix(device, tag)
        withUnsafeBytes(of: UInt64(bitPattern: time ^ Int64.min).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: seq.bigEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// The (time, seq) at the end of a key.
    static func position(_ key: [UInt8]) -> (time: Int64, seq: UInt64)? {
        guard key.count >= 16 else { return nil }
        let tail = Array(key.suffix(16))
        let t = tail.withUnsafeBytes { Int64(bitPattern: UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))) ^ Int64.min }
        let s = tail.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        return (t, s)
    }

    /// A checkpoint value: the log's last seq when it was made, then the engine state.
    static func value(highSeq: UInt64, state: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: highSeq.bigEndian) { Array($0) } + state
    }

    static func split(_ value: [UInt8]) -> (highSeq: UInt64, state: [UInt8])? {
        guard value.count >= 8 else { return nil }
        let high = value.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        return (high, Array(value[8...]))
    }
}

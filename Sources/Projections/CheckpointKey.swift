import Crypto
import Ledger
import SmartStack

/// How checkpoints are keyed in the store's derived data:
/// `cp` device 0x00 engine(8) time(8) seq(8), all big-endian, so that the newest
/// checkpoint at or before an instant is one seek away.
struct CheckpointKey {
    static let root: [UInt8] = Array("cp".utf8)
    /// The layout of checkpoint values (2: the state deflated); part of the engine tag, so
    /// that values of another layout are never read as this one.
    static let formatVersion = 2

    /// The 8 bytes that name an engine version and a policy: a policy override or a new
    /// engine never reuses another's checkpoints.
    static func engineTag(_ policy: Policy) -> [UInt8] {
        let text = "\(DeviceEngine.engineVersion)\n\(policy.digest)\n\(formatVersion)"
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

    /// A checkpoint value: the log's last seq when it was made (8 bytes), the engine
    /// state's size (4 bytes), then the state deflated.
    static func value(highSeq: UInt64, state: [UInt8]) -> [UInt8] {
        var out = withUnsafeBytes(of: highSeq.bigEndian) { Array($0) }
        withUnsafeBytes(of: UInt32(state.count).bigEndian) { out.append(contentsOf: $0) }
        return out + Deflate.compress(state)
    }

    /// The log's last seq and the still deflated state of a checkpoint value.
    static func split(_ value: [UInt8]) -> (highSeq: UInt64, state: ArraySlice<UInt8>)? {
        guard value.count >= 12 else { return nil }
        let high = value.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        return (high, value[8...])
    }

    /// The engine state of a split value, inflated; nil when it is damaged.
    static func inflate(_ state: ArraySlice<UInt8>) -> [UInt8]? {
        guard state.count >= 4 else { return nil }
        let size = state.withUnsafeBytes { Int(UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self))) }
        return Deflate.decompress(state.dropFirst(4), size: size)
    }
}

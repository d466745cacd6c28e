import Crypto
import Ledger
import SmartStack

/// How checkpoints are keyed in the store's derived data:
/// `cp` device 0x00 engine(8) time(8) seq(8), all big-endian, so that the newest
/// checkpoint at or before an instant is one seek away.
struct CheckpointKey {
    static let root: [UInt8] = Array("cp".utf8)
    /// The layout of checkpoint values (5: the state compressed with Zstandard, on its own
    /// or after the state of an earlier checkpoint, each day's usage records a section with
    /// strings of its own); part of the engine tag, so that values of another layout are
    /// never read as this one.
    static let formatVersion = 5
    /// Of a fold's checkpoints, every this many is compressed on its own; those between are
    /// compressed after the one before, so restoring one decompresses at most this many.
    static let keyframeInterval = 8

    /// The 8 bytes that name an engine version and a policy: a policy override or a new
    /// engine never reuses another's checkpoints.
    static func engineTag(_ policy: Policy) -> [UInt8] {
        let text = "\(DeviceEngine.engineVersion)\n\(policy.digest)\n\(formatVersion)"
        return Array(SHA256.hash(data: Array(text.utf8)).prefix(tagSize))
    }

    static func devicePrefix(_ device: String) -> [UInt8] { root + Array(device.utf8) + [0] }

    /// The length of an engine tag.
    static let tagSize = 8

    /// The engine tag of a checkpoint's or a floor's key under `root` (`CheckpointKey.root`
    /// or `CheckpointFloors.root`): the bytes after its device's name; nil for a key too
    /// short to hold one.
    static func tag<Key: RandomAccessCollection<UInt8>>(ofKey key: Key, under root: [UInt8]) -> Key.SubSequence? where Key.Index == Int {
        guard let zero = key.dropFirst(root.count).firstIndex(of: 0), key.endIndex - zero > tagSize else { return nil }
        return key[(zero + 1)..<(zero + 1 + tagSize)]
    }

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

}

/// A checkpoint's value: the log's last seq when it was made (8 bytes), the engine state's
/// size (4 bytes), the (time, seq) of the checkpoint whose state was the prefix (16 bytes;
/// seq 0 for none), then the state compressed (one Zstandard frame).
struct CheckpointValue {
    var highSeq: UInt64
    var size: Int
    /// The earlier checkpoint of the same device whose state the value was compressed
    /// after, nil when it stands alone.
    var base: (time: Int64, seq: UInt64)?
    var compressed: ArraySlice<UInt8>

    static let headerSize = 28

    /// Parses a stored value; nil when it is too short to be one.
    init?(_ value: [UInt8]) {
        guard value.count >= CheckpointValue.headerSize else { return nil }
        (highSeq, size, base) = value.withUnsafeBytes { raw in
            let time = Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)))
            let seq = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 20, as: UInt64.self))
            return (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                    Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))),
                    seq == 0 ? nil : (time, seq))
        }
        compressed = value[CheckpointValue.headerSize...]
    }

    /// The value of `state`, compressed after `base`'s state when there is one.
    static func encode(highSeq: UInt64, state: [UInt8], base: (time: Int64, seq: UInt64, state: [UInt8])?,
                       compressor: StateCompressor = StateCompressor()) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(headerSize + state.count / 2)
        withUnsafeBytes(of: highSeq.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(state.count).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(bitPattern: base?.time ?? 0).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: (base?.seq ?? 0).bigEndian) { out.append(contentsOf: $0) }
        compressor.compress(state, prefix: base?.state ?? [], appendingTo: &out)
        return out
    }
}

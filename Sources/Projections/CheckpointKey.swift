import Crypto
import Ledger
import SmartStack

/// How checkpoints are keyed in the store's derived data:
/// `cp` device 0x00 engine(8) time(8) seq(8), all big-endian, so that the newest
/// checkpoint at or before an instant is one seek away.
struct CheckpointKey {
    static let root: [UInt8] = Array("cp".utf8)
    /// The layout of checkpoint values (7: the state's bytes as they are, each day's usage
    /// records a section with strings of its own, and the days unchanged since the state of
    /// an earlier checkpoint named, not written again; a CRC-32C of the whole state; 9:
    /// times as deltas, in seconds when whole, scores and durations as `StateDecimal`s; 10:
    /// where a run starts in the earlier state as its distance from where the run before
    /// ended there; 11: a value that stands alone holds its state as an LZ4 block); part of
    /// the engine tag, so that values of another layout are never read as this one.
    static let formatVersion = 11
    /// Of a fold's checkpoints, every this many stands alone; those between copy runs from
    /// the one before, so restoring one puts together at most this many (eight on
    /// average, each a copy of a state's bytes).
    static let keyframeInterval = 16

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
    static func tag<Key: RandomAccessCollection<UInt8>>(ofKey key: Key, under root: [UInt8]) -> Key.SubSequence?
    where Key.Index == Int {
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
        let t = tail.withUnsafeBytes {
            Int64(bitPattern: UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))) ^ Int64.min
        }
        let s = tail.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        return (t, s)
    }
}

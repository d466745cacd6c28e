import Crypto

/// One committed write transaction: which records and string definitions it added,
/// when, and the hash chain link that covers them.
///
/// `hash = SHA-256(previousHash ‖ header fields ‖ SHA-256(strings) ‖ SHA-256(records))`,
/// where each string contributes `id, length, bytes` and each record `seq, length, bytes`
/// (its stored bytes, CRC included).
public struct BatchHeader: Hashable, Sendable {
    /// The header's format version.
    public static let version: UInt8 = 1
    /// The first sequence number of the batch.
    public var firstSeq: UInt64
    /// How many records the batch appended.
    public var count: UInt32
    /// The first string id the batch defined.
    public var firstStringID: UInt32
    /// How many strings it defined.
    public var stringCount: UInt32
    /// When the batch was committed (transaction time), microseconds since 1970.
    public var recordedMicros: Int64
    /// The previous batch's hash (zeros for the first).
    public var previousHash: [UInt8]
    /// This batch's chain hash.
    public var hash: [UInt8]

    /// The last sequence number of the batch.
    public var lastSeq: UInt64 { firstSeq + UInt64(count) - 1 }

    static let encodedSize = 1 + 8 + 4 + 4 + 4 + 8 + 32 + 32 + 4

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: BatchHeader.encodedSize)
        w.write(BatchHeader.version)
        w.writeFixed(firstSeq)
        w.writeFixed(count)
        w.writeFixed(firstStringID)
        w.writeFixed(stringCount)
        w.writeFixed(recordedMicros)
        w.write(contentsOf: previousHash)
        w.write(contentsOf: hash)
        w.writeFixed(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// Decodes a stored header; nil if it is malformed or fails its CRC.
    static func decode(_ b: UnsafeRawBufferPointer) -> BatchHeader? {
        guard b.count == encodedSize, b[0] == version else { return nil }
        let crc = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: encodedSize - 4, as: UInt32.self))
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<encodedSize - 4])) == crc else { return nil }
        var r = ByteReader(b, offset: 1)
        do {
            let first = try r.readFixed(UInt64.self)
            let count = try r.readFixed(UInt32.self)
            let firstString = try r.readFixed(UInt32.self)
            let stringCount = try r.readFixed(UInt32.self)
            let recorded = try r.readFixed(Int64.self)
            let prev = Array(try r.readBytes(32))
            let hash = Array(try r.readBytes(32))
            return BatchHeader(
                firstSeq: first, count: count, firstStringID: firstString, stringCount: stringCount,
                recordedMicros: recorded, previousHash: prev, hash: hash)
        } catch {
            return nil
        }
    }

    /// Computes the chain hash from the digests of the batch's strings and records.
    static func chainHash(
        previous: [UInt8], firstSeq: UInt64, count: UInt32, firstStringID: UInt32,
        stringCount: UInt32, recordedMicros: Int64,
        stringsDigest: SHA256.Digest, recordsDigest: SHA256.Digest
    ) -> [UInt8] {
        var h = SHA256()
        h.update(data: previous)
        var w = ByteWriter(capacity: 32)
        w.write(version)
        w.writeFixed(firstSeq)
        w.writeFixed(count)
        w.writeFixed(firstStringID)
        w.writeFixed(stringCount)
        w.writeFixed(recordedMicros)
        h.update(data: w.bytes)
        h.update(data: Array(stringsDigest))
        h.update(data: Array(recordsDigest))
        return Array(h.finalize())
    }

    /// The zero hash that precedes the first batch.
    public static let genesis = [UInt8](repeating: 0, count: 32)
}

/// Streams the chain inputs of one batch into two SHA-256 digests.
struct BatchDigests {
    let strings = StagedDigest()
    let records = StagedDigest()

    func addString(id: UInt32, bytes: UnsafeRawBufferPointer) {
        var prefix = (id.littleEndian, UInt32(bytes.count).littleEndian)
        withUnsafeBytes(of: &prefix) { strings.add($0) }
        strings.add(bytes)
    }

    func addRecord(seq: UInt64, bytes: UnsafeRawBufferPointer) {
        var prefix = (seq.littleEndian, UInt32(bytes.count).littleEndian)
        withUnsafeBytes(of: &prefix) { p in records.add(UnsafeRawBufferPointer(rebasing: p[0..<12])) }
        records.add(bytes)
    }
}

/// A SHA-256 digest fed through a buffer: small inputs are gathered and hashed together,
/// so that each costs a copy rather than a call into the hash. The digest is that of the
/// inputs in order, as if each were hashed as it came.
final class StagedDigest {
    private var hash = SHA256()
    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0

    init(capacity: Int = 64 << 10) {
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Adds `bytes` after the inputs before.
    @inline(__always)
    func add(_ bytes: UnsafeRawBufferPointer) {
        if count + bytes.count > buffer.count {
            flush()
            if bytes.count > buffer.count {
                hash.update(bufferPointer: bytes)
                return
            }
        }
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (buffer.baseAddress! + count).copyMemory(from: base, byteCount: bytes.count)
            count += bytes.count
        }
    }

    /// The digest of every input added.
    func finalize() -> SHA256.Digest {
        flush()
        return hash.finalize()
    }

    private func flush() {
        guard count > 0 else { return }
        hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        count = 0
    }
}

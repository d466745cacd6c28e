import Ledger
import SmartStack

/// A checkpoint's value: the log's last seq when it was made (8 bytes), the engine state's
/// size (4 bytes), the (time, seq) of the checkpoint whose state it was compressed after
/// (16 bytes; seq 0 for none), the runs of the state copied from that state (a varint
/// count, then for each its distance from the end of the run before, where it starts in
/// the earlier state and its length, as varints, and when there are any the whole
/// state's CRC-32C, 4 bytes), then the rest of the state compressed (one Zstandard frame,
/// which checks its own content), with what the earlier state holds besides those runs
/// as its prefix.
struct CheckpointValue {
    var highSeq: UInt64
    var size: Int
    /// The earlier checkpoint of the same device whose state the value was compressed
    /// after, nil when it stands alone.
    var base: (time: Int64, seq: UInt64)?
    /// The runs of the state that are the same bytes as runs of the base's state, in order.
    var copies: [StateCopy]
    /// The whole state's CRC-32C, when runs are copied (the frame checks only the rest).
    var checksum: UInt32 = 0
    var compressed: ArraySlice<UInt8>

    static let headerSize = 28

    /// Parses a stored value; nil when it is not one.
    init?(_ value: [UInt8]) {
        guard value.count >= CheckpointValue.headerSize else { return nil }
        (highSeq, size, base) = value.withUnsafeBytes { raw in
            let time = Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)))
            let seq = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 20, as: UInt64.self))
            return (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                    Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))),
                    seq == 0 ? nil : (time, seq))
        }
        // The runs and the checksum, read with the log's own varint reader.
        let (size, hasBase) = (size, base != nil)
        let parsed = value.withUnsafeBytes { raw -> (copies: [StateCopy], checksum: UInt32, offset: Int)? in
            var r = ByteReader(raw, offset: CheckpointValue.headerSize)
            guard let count = try? r.readLength(), count <= size, hasBase || count == 0 else { return nil }
            var copies = [StateCopy]()
            copies.reserveCapacity(count)
            var end = 0
            for _ in 0..<count {
                guard let gap = try? r.readLength(), let from = try? r.readLength(), let length = try? r.readLength(), length > 0,
                      end + gap + length <= size else { return nil }
                copies.append(StateCopy(at: end + gap, from: from, count: length))
                end += gap + length
            }
            guard count > 0 else { return (copies, 0, r.offset) }
            // Stored big-endian; the reader reads little-endian.
            guard let checksum = try? r.readFixed(UInt32.self) else { return nil }
            return (copies, checksum.byteSwapped, r.offset)
        }
        guard let parsed else { return nil }
        (copies, checksum, compressed) = (parsed.copies, parsed.checksum, value[parsed.offset...])
    }

    /// The value of `state`, compressed after `base`'s state when there is one, leaving out
    /// the runs `copies` names (runs of `state` copied from `base`'s state, in order).
    static func encode(highSeq: UInt64, state: [UInt8], base: (time: Int64, seq: UInt64, state: [UInt8])?,
                       copies: [StateCopy] = [], compressor: StateCompressor = StateCompressor()) -> [UInt8] {
        let copies = base == nil ? [] : copies
        var out = [UInt8]()
        out.reserveCapacity(headerSize + state.count / 2)
        withUnsafeBytes(of: highSeq.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(state.count).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(bitPattern: base?.time ?? 0).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: (base?.seq ?? 0).bigEndian) { out.append(contentsOf: $0) }
        var runs = ByteWriter(capacity: 4 + 12 * copies.count)
        runs.writeVarint(UInt64(copies.count))
        var end = 0
        for c in copies {
            runs.writeVarint(UInt64(c.at - end)); runs.writeVarint(UInt64(c.from)); runs.writeVarint(UInt64(c.count))
            end = c.at + c.count
        }
        out.append(contentsOf: runs.bytes)
        if copies.isEmpty {
            compressor.compress(state, prefix: base?.state ?? [], appendingTo: &out)
        } else {
            withUnsafeBytes(of: StatePatch.checksum(state).bigEndian) { out.append(contentsOf: $0) }
            compressor.compress(StatePatch.literals(of: state, leaving: copies),
                                prefix: StatePatch.uncopied(base!.state, by: copies) ?? base!.state, appendingTo: &out)
        }
        return out
    }

    /// The state this value holds, given its base's state (empty when it stands alone);
    /// nil when the bytes do not decompress to it.
    func state(after base: [UInt8], decompressor: StateDecompressor) -> [UInt8]? {
        if copies.isEmpty { return decompressor.decompress(compressed, size: size, prefix: base) }
        let copied = copies.reduce(0) { $0 + $1.count }
        guard let prefix = StatePatch.uncopied(base, by: copies),
              let literals = decompressor.decompress(compressed, size: size - copied, prefix: prefix),
              let state = StatePatch.assemble(size: size, literals: literals, base: base, copies: copies),
              StatePatch.checksum(state) == checksum else { return nil }
        return state
    }
}

/// How a state compressed after another one leaves out the runs it copied from it.
enum StatePatch {
    static func checksum(_ state: [UInt8]) -> UInt32 {
        state.withUnsafeBytes { CRC32C.update(0, $0) }
    }

    /// `state` without the runs `copies` names (ascending, apart).
    static func literals(of state: [UInt8], leaving copies: [StateCopy]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(state.count - copies.reduce(0) { $0 + $1.count })
        var end = 0
        for c in copies {
            out.append(contentsOf: state[end..<c.at])
            end = c.at + c.count
        }
        out.append(contentsOf: state[end...])
        return out
    }

    /// The base's state without the runs copied from it: what a changed run most likely
    /// resembles. Nil when the runs overlap or pass its end.
    static func uncopied(_ base: [UInt8], by copies: [StateCopy]) -> [UInt8]? {
        let runs = copies.sorted { $0.from < $1.from }
        var out = [UInt8]()
        out.reserveCapacity(base.count)
        var end = 0
        for c in runs {
            guard c.from >= end, c.from + c.count <= base.count else { return nil }
            out.append(contentsOf: base[end..<c.from])
            end = c.from + c.count
        }
        out.append(contentsOf: base[end...])
        return out
    }

    /// The state of `size` bytes made of `literals` with the runs `copies` names taken
    /// from `base`; nil when they do not fit.
    static func assemble(size: Int, literals: [UInt8], base: [UInt8], copies: [StateCopy]) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(size)
        var used = 0
        for c in copies {
            let gap = c.at - out.count
            guard gap >= 0, used + gap <= literals.count, c.from + c.count <= base.count else { return nil }
            out.append(contentsOf: literals[used..<(used + gap)])
            used += gap
            out.append(contentsOf: base[c.from..<(c.from + c.count)])
        }
        out.append(contentsOf: literals[used...])
        return out.count == size ? out : nil
    }
}

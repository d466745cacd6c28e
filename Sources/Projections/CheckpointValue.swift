import CLZ4
import Ledger
import SmartStack

/// A checkpoint's value: the log's last seq when it was made (8 bytes), the engine state's
/// size (4 bytes), the (time, seq) of the checkpoint whose state it copies runs from (16
/// bytes; seq 0 for none), those runs (a varint count, then for each its distance from
/// the end of the run before, where it starts in the earlier state as a zigzag varint of
/// its distance from where the run before ended there, and its length, as varints; runs
/// mostly follow one another in both states), the whole state's CRC-32C (4 bytes), then the
/// rest of the state's bytes: as they are after runs, or, for a value that stands alone
/// (no runs), the whole state as one LZ4 block.
///
/// A value after another is mostly its runs, and the bytes between them are what changed:
/// timelines, reloads, the day's usage records, which LZ4 leaves at nine tenths of their
/// size, for a copy and a decompression on every restore. A value that stands alone is
/// mostly the days of usage records, which LZ4 leaves at under half, decompressed at
/// several GB/s: once a restore, for the first state of its chain.
struct CheckpointValue {
    var highSeq: UInt64
    var size: Int
    /// The earlier checkpoint of the same device whose state the runs are copied from,
    /// nil when the value stands alone.
    var base: (time: Int64, seq: UInt64)?
    /// The runs of the state that are the same bytes as runs of the base's state, in order.
    var copies: [StateCopy]
    /// The whole state's CRC-32C.
    var checksum: UInt32
    /// The state's bytes outside the runs, in order; for a value that stands alone, the
    /// LZ4 block of the whole state.
    var literals: ArraySlice<UInt8>

    static let headerSize = 28

    /// Parses a stored value; nil when it is not one.
    init?(_ value: [UInt8]) {
        guard value.count >= CheckpointValue.headerSize else { return nil }
        (highSeq, size, base) = value.withUnsafeBytes { raw in
            let time = Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)))
            let seq = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 20, as: UInt64.self))
            return (
                UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))),
                seq == 0 ? nil : (time, seq)
            )
        }
        // The runs and the checksum, read with the log's own varint reader.
        let (size, hasBase) = (size, base != nil)
        let parsed = value.withUnsafeBytes { raw -> (copies: [StateCopy], checksum: UInt32, offset: Int)? in
            var r = ByteReader(raw, offset: CheckpointValue.headerSize)
            guard let count = try? r.readLength(), count <= size, hasBase || count == 0 else { return nil }
            var copies = [StateCopy]()
            copies.reserveCapacity(count)
            var (end, baseEnd) = (0, 0)
            for _ in 0..<count {
                guard let gap = try? r.readLength(), let shift = try? r.readSignedVarint(),
                    let length = try? r.readLength(), length > 0, end + gap + length <= size,
                    abs(shift) <= Int64(Int32.max), baseEnd + Int(shift) >= 0
                else { return nil }
                let from = baseEnd + Int(shift)
                copies.append(StateCopy(at: end + gap, from: from, count: length))
                (end, baseEnd) = (end + gap + length, from + length)
            }
            // Stored big-endian; the reader reads little-endian.
            guard let checksum = try? r.readFixed(UInt32.self) else { return nil }
            return (copies, checksum.byteSwapped, r.offset)
        }
        guard let parsed else { return nil }
        (copies, checksum, literals) = (parsed.copies, parsed.checksum, value[parsed.offset...])
    }

    /// The value of `state`, with the runs `copies` names (runs of `state` copied from
    /// `base`'s state, in order) left out; it stands alone when there are none.
    static func encode(
        highSeq: UInt64, state: [UInt8], base: (time: Int64, seq: UInt64, state: [UInt8])?,
        copies: [StateCopy] = []
    ) -> [UInt8] {
        let copies = base == nil ? [] : copies
        let base = copies.isEmpty ? nil : base
        var runs = ByteWriter(capacity: 4 + 12 * copies.count)
        runs.writeVarint(UInt64(copies.count))
        var (end, baseEnd) = (0, 0)
        var copied = 0
        for c in copies {
            runs.writeVarint(UInt64(c.at - end))
            runs.writeSignedVarint(Int64(c.from - baseEnd))
            runs.writeVarint(UInt64(c.count))
            (end, baseEnd) = (c.at + c.count, c.from + c.count)
            copied += c.count
        }
        var out = [UInt8]()
        out.reserveCapacity(headerSize + runs.bytes.count + 4 + state.count - copied)
        withUnsafeBytes(of: highSeq.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(state.count).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(bitPattern: base?.time ?? 0).bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: (base?.seq ?? 0).bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: runs.bytes)
        withUnsafeBytes(of: StatePatch.checksum(state).bigEndian) { out.append(contentsOf: $0) }
        if copies.isEmpty {
            StatePatch.appendCompressed(state, to: &out)
        } else {
            StatePatch.appendLiterals(of: state, leaving: copies, to: &out)
        }
        return out
    }

    /// The state this value holds, given its base's state (empty when it stands alone);
    /// nil when its bytes and that state do not make one whose checksum holds. With
    /// `verifying` false the checksum is not computed: a state made only to be the base
    /// of the next in a chain is checked through the last one, whose checksum covers
    /// every byte it copied from it.
    func state(after base: [UInt8], verifying: Bool = true) -> [UInt8]? {
        let state: [UInt8]
        if copies.isEmpty {
            guard let decompressed = StatePatch.decompress(literals, size: size) else { return nil }
            state = decompressed
        } else {
            guard let assembled = StatePatch.assemble(size: size, literals: literals, base: base, copies: copies) else {
                return nil
            }
            state = assembled
        }
        return !verifying || StatePatch.checksum(state) == checksum ? state : nil
    }
}

/// How a state stored after another one leaves out the runs it copied from it.
enum StatePatch {
    static func checksum(_ state: [UInt8]) -> UInt32 {
        state.withUnsafeBytes { CRC32C.update(0, $0) }
    }

    /// Appends `state` as one LZ4 block.
    static func appendCompressed(_ state: [UInt8], to out: inout [UInt8]) {
        guard !state.isEmpty else { return }
        // A state is tens of KB; LZ4 takes up to about 2 GB at once.
        precondition(state.count <= Int(LZ4_MAX_INPUT_SIZE), "a checkpoint's state is too large for one LZ4 block")
        let bound = Int(LZ4_compressBound(Int32(state.count)))
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: bound))
        let written = state.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                LZ4_compress_default(
                    source.baseAddress!.assumingMemoryBound(to: CChar.self),
                    (target.baseAddress! + start).assumingMemoryBound(to: CChar.self), Int32(state.count), Int32(bound))
            }
        }
        // LZ4 always fits an input it takes into its bound.
        precondition(written > 0, "LZ4 could not compress a checkpoint's state")
        out.removeLast(bound - Int(written))
    }

    /// The `size` bytes that the LZ4 block `block` holds; nil when it does not hold exactly
    /// that many (LZ4's safe decoder never reads or writes outside the two buffers).
    static func decompress(_ block: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
        if size == 0 { return block.isEmpty ? [] : nil }
        guard !block.isEmpty, block.count <= Int(Int32.max), size <= Int(Int32.max) else { return nil }
        var complete = false
        let state = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            let produced = block.withUnsafeBytes { source in
                LZ4_decompress_safe(
                    source.baseAddress!.assumingMemoryBound(to: CChar.self),
                    UnsafeMutableRawPointer(out.baseAddress!).assumingMemoryBound(to: CChar.self), Int32(block.count),
                    Int32(size))
            }
            complete = Int(produced) == size
            // Bytes are always initialized; a short or failed block is thrown away below.
            if !complete { out.initialize(repeating: 0) }
            initialized = size
        }
        return complete ? state : nil
    }

    /// Appends `state` without the runs `copies` names (ascending, apart) to `out`.
    static func appendLiterals(of state: [UInt8], leaving copies: [StateCopy], to out: inout [UInt8]) {
        var end = 0
        for c in copies {
            out.append(contentsOf: state[end..<c.at])
            end = c.at + c.count
        }
        out.append(contentsOf: state[end...])
    }

    /// The state of `size` bytes made of `literals` with the runs `copies` names taken
    /// from `base`; nil when they do not fit. Every run is checked before a byte is copied.
    static func assemble(size: Int, literals: ArraySlice<UInt8>, base: [UInt8], copies: [StateCopy]) -> [UInt8]? {
        var end = 0
        var copied = 0
        for c in copies {
            guard c.at >= end, c.count >= 0, c.from >= 0, c.from <= base.count - c.count else { return nil }
            end = c.at + c.count
            copied += c.count
        }
        guard end <= size, literals.count == size - copied else { return nil }
        if size == 0 { return [] }
        return [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            literals.withUnsafeBytes { literals in
                base.withUnsafeBytes { base in
                    let to = UnsafeMutableRawPointer(out.baseAddress!)
                    var (at, used) = (0, 0)
                    func put(_ from: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) {
                        guard count > 0 else { return }
                        (to + at).copyMemory(from: from.baseAddress! + offset, byteCount: count)
                        at += count
                    }
                    for c in copies {
                        let gap = c.at - at
                        put(literals, used, gap)
                        used += gap
                        put(base, c.from, c.count)
                    }
                    put(literals, used, size - at)
                }
            }
            initialized = size
        }
    }
}

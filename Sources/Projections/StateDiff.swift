import SmartStack

/// Finds the runs of an engine state's bytes that the state before it holds too, for a
/// checkpoint that stores only the rest (`CheckpointValue`).
///
/// Between two checkpoints most of a state is unchanged but moved: a stack's decision
/// changes and the members after it shift, a string interned earlier changes the indices
/// written after it. The state before is indexed by its 8-byte blocks (at offsets that are
/// multiples of 8); every offset of the new state's bytes outside the runs already known
/// (the days of usage records copied whole, `UsageDays`) is looked up, and a block found
/// is grown backwards and forwards as far as both states agree. A run of at least
/// `shortest` bytes is copied; one that matches nothing, or less, is written as it is.
/// The same two states always give the same runs.
enum StateDiff {
    /// The bytes a block of the state before holds.
    static let block = 8
    /// The shortest run worth copying: a copy costs three varints, about five bytes.
    static let shortest = 12

    /// The runs of `state` to copy from `base`: `known` (ascending, apart, each within both
    /// states), with the runs found between them, in order.
    static func copies(of state: [UInt8], from base: [UInt8], keeping known: [StateCopy]) -> [StateCopy] {
        guard base.count >= block, state.count >= block else { return known }
        let index = BlockIndex(base)
        var out = [StateCopy]()
        out.reserveCapacity(known.count + 256)
        state.withUnsafeBytes { s in
            base.withUnsafeBytes { b in
                var start = 0
                for k in known {
                    findRuns(in: start..<k.at, of: s, from: b, index: index, into: &out)
                    out.append(k)
                    start = k.at + k.count
                }
                findRuns(in: start..<s.count, of: s, from: b, index: index, into: &out)
            }
        }
        return out
    }

    /// Appends the runs of `s[range]` found in `b`, in order.
    private static func findRuns(
        in range: Range<Int>, of s: UnsafeRawBufferPointer, from b: UnsafeRawBufferPointer, index: BlockIndex,
        into out: inout [StateCopy]
    ) {
        var j = range.lowerBound
        // Where the bytes not yet copied start: a run grows backwards no further.
        var pending = range.lowerBound
        while j + block <= range.upperBound {
            let value = s.loadUnaligned(fromByteOffset: j, as: UInt64.self)
            if let i = index.offset(of: value, in: b) {
                var (at, from) = (j, i)
                while at > pending && from > 0 && s[at - 1] == b[from - 1] {
                    at -= 1
                    from -= 1
                }
                var (end, baseEnd) = (j + block, i + block)
                while end < range.upperBound && baseEnd < b.count && s[end] == b[baseEnd] {
                    end += 1
                    baseEnd += 1
                }
                if end - at >= shortest {
                    out.append(StateCopy(at: at, from: from, count: end - at))
                    j = end
                    pending = end
                    continue
                }
            }
            j += 1
        }
    }
}

/// The offsets of a state's 8-byte blocks by their bytes: an open-addressing table of
/// offsets (plus one; 0 is empty), the first block of each value kept.
private struct BlockIndex {
    private var slots: [Int32]
    private let shift: UInt64

    init(_ base: [UInt8]) {
        let blocks = base.count / StateDiff.block
        var bits: UInt64 = 4
        while (1 << bits) < 2 * blocks { bits += 1 }
        slots = [Int32](repeating: 0, count: 1 << bits)
        shift = 64 - bits
        let mask = slots.count - 1
        base.withUnsafeBytes { b in
            slots.withUnsafeMutableBufferPointer { slots in
                for k in 0..<blocks {
                    let offset = k * StateDiff.block
                    let value = b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    var i = BlockIndex.slot(value, shift)
                    while slots[i] != 0 {
                        if b.loadUnaligned(fromByteOffset: Int(slots[i]) - 1, as: UInt64.self) == value { break }
                        i = (i + 1) & mask
                    }
                    if slots[i] == 0 { slots[i] = Int32(offset + 1) }
                }
            }
        }
    }

    @inline(__always)
    private static func slot(_ value: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (value &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The offset of a block of `b` (the bytes indexed) holding `value`, if one does.
    @inline(__always)
    func offset(of value: UInt64, in b: UnsafeRawBufferPointer) -> Int? {
        let mask = slots.count - 1
        var i = BlockIndex.slot(value, shift)
        while true {
            let found = slots[i]
            if found == 0 { return nil }
            let offset = Int(found) - 1
            if b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == value { return offset }
            i = (i + 1) & mask
        }
    }
}

/// The open-addressing index of a string table (`SortedTable`, `UnorderedTable`): for each
/// slot, the entry index + 1, 0 for an empty slot; at least twice as many slots as entries
/// (a power of two), empty while there are none. The table keeps the keys, values and
/// their `StringHash`es in columns; the index finds an entry by its hash.
struct SlotIndex: Sendable {
    private var slots: [Int32] = []

    /// The index of the entry whose hash is `h` and whose key `matches`, if any.
    @inline(__always)
    func probe(hash h: UInt64, in hashes: [UInt64], _ matches: (Int) -> Bool) -> Int? {
        if hashes.isEmpty { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { return nil }
            if hashes[e] == h && matches(e) { return e }
            slot = (slot + 1) & mask
        }
    }

    /// Whether a table of `count` entries fits without a rebuild.
    func fits(_ count: Int) -> Bool { slots.count >= count * 2 }

    /// Indexes every entry of `hashes` anew.
    mutating func rebuild(_ hashes: [UInt64]) {
        guard !hashes.isEmpty else {
            slots.removeAll(keepingCapacity: true)
            return
        }
        var size = 4
        while size < hashes.count * 2 { size *= 2 }
        if slots.count != size {
            slots.removeAll(keepingCapacity: true)
            slots.append(contentsOf: repeatElement(0, count: size))
        } else {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        for e in hashes.indices { place(e, hash: hashes[e]) }
    }

    /// Puts entry `e` in a free slot of its hash `h` (the index has room).
    mutating func place(_ e: Int, hash h: UInt64) {
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(e + 1)
        }
    }

    /// Keeps the index in step with an entry inserted at `i`: the entries from `i` on moved
    /// up by one (then `place` the new one).
    mutating func shift(from i: Int) {
        let moved = Int32(i)
        slots.withUnsafeMutableBufferPointer { slots in
            for k in slots.indices where slots[k] > moved { slots[k] &+= 1 }
        }
    }

    /// Drops every slot.
    mutating func removeAll() { slots.removeAll(keepingCapacity: true) }
}

/// Drops, from a table's columns, the entries whose value passes `drop`, keeping the others
/// in order; whether any was dropped (the table's index is then stale).
func dropEntries<Value>(
    keys: inout [String], values: inout [Value], hashes: inout [UInt64], where drop: (Value) -> Bool
) -> Bool {
    guard values.contains(where: drop) else { return false }
    var n = 0
    for e in keys.indices where !drop(values[e]) {
        if n != e { (keys[n], values[n], hashes[n]) = (keys[e], values[e], hashes[e]) }
        n += 1
    }
    keys.removeLast(keys.count - n)
    values.removeLast(values.count - n)
    hashes.removeLast(hashes.count - n)
    return true
}

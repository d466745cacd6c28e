import RecordFormat

/// A map from strings that is never iterated in order: found by `StringHash` (far cheaper
/// than `Hasher`) as `SortedTable` is, but each new key is appended, so that a table of a
/// device's thousands of members takes one in constant time instead of shifting them all.
/// For caches only: nothing that reaches an answer or a checkpoint may depend on its order.
struct UnorderedTable<Value> {
    private var keys: [String] = []
    private var values: [Value] = []
    private var hashes: [UInt64] = []
    /// Open addressing on the hashes: entry index + 1, 0 for an empty slot; at least twice
    /// as many slots as keys (a power of two), empty while there are no keys.
    private var slots: [Int32] = []

    var count: Int { keys.count }

    /// The entry index of `key`, if present.
    private func find(_ key: String, hash h: UInt64) -> Int? {
        if keys.isEmpty { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[slot]) - 1
            if e < 0 { return nil }
            if hashes[e] == h && keys[e] == key { return e }
            slot = (slot + 1) & mask
        }
    }

    subscript(key: String) -> Value? {
        get { find(key, hash: StringHash.of(key)).map { values[$0] } }
        set {
            let h = StringHash.of(key)
            if let e = find(key, hash: h) {
                if let newValue {
                    values[e] = newValue
                } else {
                    keys.remove(at: e)
                    values.remove(at: e)
                    hashes.remove(at: e)
                    reindex()
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                hashes.append(h)
                if slots.count >= keys.count * 2 { place(keys.count - 1) } else { reindex() }
            }
        }
    }

    /// Drops every entry.
    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
    }

    /// Drops the entries whose value passes `drop`.
    mutating func removeAll(where drop: (Value) -> Bool) {
        guard values.contains(where: drop) else { return }
        var n = 0
        for e in keys.indices where !drop(values[e]) {
            if n != e { (keys[n], values[n], hashes[n]) = (keys[e], values[e], hashes[e]) }
            n += 1
        }
        keys.removeLast(keys.count - n)
        values.removeLast(values.count - n)
        hashes.removeLast(hashes.count - n)
        reindex()
    }

    /// Puts entry `e` in a free slot of its hash.
    private mutating func place(_ e: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hashes[e]) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(e + 1)
    }

    private mutating func reindex() {
        guard !keys.isEmpty else {
            slots.removeAll(keepingCapacity: true)
            return
        }
        var size = 4
        while size < keys.count * 2 { size *= 2 }
        slots.removeAll(keepingCapacity: true)
        slots.append(contentsOf: repeatElement(0, count: size))
        for e in keys.indices { place(e) }
    }
}

extension UnorderedTable: Sendable where Value: Sendable {}

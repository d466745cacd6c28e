import RecordFormat

/// A map from strings that is never iterated in order: found by `StringHash` (far cheaper
/// than `Hasher`) as `SortedTable` is, but each new key is appended, so that a table of a
/// device's thousands of members takes one in constant time instead of shifting them all.
/// For caches only: nothing that reaches an answer or a checkpoint may depend on its order.
struct UnorderedTable<Value> {
    private var keys: [String] = []
    private var values: [Value] = []
    private var hashes: [UInt64] = []
    private var index = SlotIndex()

    var count: Int { keys.count }

    /// The entry index of `key`, if present.
    private func find(_ key: String, hash h: UInt64) -> Int? {
        index.probe(hash: h, in: hashes) { keys[$0] == key }
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
                    index.rebuild(hashes)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                hashes.append(h)
                if index.fits(keys.count) { index.place(keys.count - 1, hash: h) } else { index.rebuild(hashes) }
            }
        }
    }

    /// Drops every entry.
    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        index.removeAll()
    }

    /// Drops the entries whose value passes `drop`.
    mutating func removeAll(where drop: (Value) -> Bool) {
        if dropEntries(keys: &keys, values: &values, hashes: &hashes, where: drop) { index.rebuild(hashes) }
    }
}

extension UnorderedTable: Sendable where Value: Sendable {}

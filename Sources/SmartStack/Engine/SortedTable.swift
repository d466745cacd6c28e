/// A small map kept sorted by key, so iterating it is deterministic and free.
struct SortedTable<Value: Codable & Hashable>: Codable, Hashable {
    private(set) var keys: [String] = []
    private(set) var values: [Value] = []

    init() {}

    private func index(_ key: String) -> (Int, Bool) {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return (lo, lo < keys.count && keys[lo] == key)
    }

    subscript(key: String) -> Value? {
        get {
            let (i, found) = index(key)
            return found ? values[i] : nil
        }
        set {
            let (i, found) = index(key)
            switch (found, newValue) {
            case (true, let v?): values[i] = v
            case (true, nil): keys.remove(at: i); values.remove(at: i)
            case (false, let v?): keys.insert(key, at: i); values.insert(v, at: i)
            case (false, nil): break
            }
        }
    }

    var isEmpty: Bool { keys.isEmpty }

    /// Key-value pairs in key order.
    var entries: Zip2Sequence<[String], [Value]> { zip(keys, values) }
}
extension SortedTable: Sendable where Value: Sendable {}

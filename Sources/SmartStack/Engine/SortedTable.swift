import RecordFormat

/// A small map from strings, kept sorted by key so that iterating it is deterministic
/// and free, and found by a hash of the key: a lookup hashes the key's bytes once
/// (`StringHash`, far cheaper than `Hasher`) and compares one key, where a dictionary
/// would run SipHash and a binary search would compare several.
///
/// Lookups far outnumber insertions and removals of keys; a removal, or an insertion that
/// needs more slots, rebuilds the index.
struct SortedTable<Value: Hashable>: Hashable {
    private(set) var keys: [String] = []
    private(set) var values: [Value] = []
    /// `StringHash.of` each key, in key order.
    private var hashes: [UInt64] = []
    private var index = SlotIndex()

    init() {}

    /// The table of `keys` (strictly ascending) and their `values`.
    init(ascendingKeys keys: [String], values: [Value]) {
        precondition(keys.count == values.count)
        self.keys = keys
        self.values = values
        hashes = keys.map { StringHash.of($0) }
        index.rebuild(hashes)
    }

    /// The entry index of `key`, if present.
    @inline(__always)
    private func find(_ key: String, hash h: UInt64) -> Int? {
        probe(hash: h) { keys[$0] == key }
    }

    /// The index of the entry whose hash is `h` and whose key `matches`, if any.
    @inline(__always)
    private func probe(hash h: UInt64, _ matches: (Int) -> Bool) -> Int? {
        index.probe(hash: h, in: hashes, matches)
    }

    /// The value under the key made of `a`, the byte `separator` and `b`, found without
    /// making that key: its bytes are joined on the stack.
    func value(_ a: String, _ separator: UInt8, _ b: String) -> Value? {
        if keys.isEmpty { return nil }
        var (a, b) = (a, b)
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                withUnsafeTemporaryAllocation(byteCount: ua.count + ub.count + 1, alignment: 1) { joined -> Value? in
                    joined.baseAddress!.copyMemory(from: ua.baseAddress!, byteCount: ua.count)
                    joined[ua.count] = separator
                    (joined.baseAddress! + ua.count + 1).copyMemory(from: ub.baseAddress!, byteCount: ub.count)
                    let bytes = UnsafeRawBufferPointer(joined)
                    return probe(hash: StringHash.of(bytes)) { SortedTable.key(keys[$0], equals: bytes) }.map {
                        values[$0]
                    }
                }
            }
        }
    }

    /// Whether `key`'s UTF-8 is `bytes`, compared in place.
    @inline(__always)
    private static func key(_ key: String, equals bytes: UnsafeRawBufferPointer) -> Bool {
        key.utf8.withContiguousStorageIfAvailable { ObjectFields.equalBytes(UnsafeRawBufferPointer($0), bytes) }
            ?? key.utf8.elementsEqual(bytes)
    }

    /// Where `key` goes in key order.
    private func insertionPoint(_ key: String) -> Int {
        keys.partitionPoint { $0 < key }
    }

    subscript(key: String) -> Value? {
        get {
            guard let e = find(key, hash: StringHash.of(key)) else { return nil }
            return values[e]
        }
        set {
            let h = StringHash.of(key)
            if let e = find(key, hash: h) {
                if let v = newValue {
                    values[e] = v
                } else {
                    keys.remove(at: e)
                    values.remove(at: e)
                    hashes.remove(at: e)
                    index.rebuild(hashes)
                }
            } else if let v = newValue {
                let i = insertionPoint(key)
                keys.insert(key, at: i)
                values.insert(v, at: i)
                hashes.insert(h, at: i)
                if index.fits(keys.count) {
                    // A full rebuild per insertion made filling a table of n entries cost n² probes.
                    index.shift(from: i)
                    index.place(i, hash: h)
                } else {
                    index.rebuild(hashes)
                }
            }
        }
    }

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    /// Key-value pairs in key order.
    var entries: Zip2Sequence<[String], [Value]> { zip(keys, values) }

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

    static func == (a: SortedTable, b: SortedTable) -> Bool { a.keys == b.keys && a.values == b.values }

    func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}

extension SortedTable: Sendable where Value: Sendable {}

/// What a widget did today (the device's local day), counted for the caps of G3:
/// rotations by widget instance, suggestions by `app/kind`.
struct DayCounters: Hashable {
    /// What is counted.
    enum Kind: Hashable {
        case rotation, suggestion
        /// The prefix of its keys in a checkpoint.
        var prefix: String { self == .rotation ? "r|" : "s|" }
    }

    /// A key and its count today.
    struct Count: Hashable {
        var key: String
        var n: Int
    }

    /// Sorted by key. A day counts a few widgets: a scan comparing strings (equal ones
    /// are mostly the same storage) costs less than hashing the key.
    private(set) var rotations: [Count] = []
    private(set) var suggestions: [Count] = []

    var isEmpty: Bool { rotations.isEmpty && suggestions.isEmpty }

    subscript(kind: Kind, key: String) -> Int {
        get { kind == .rotation ? DayCounters.count(key, in: rotations) : DayCounters.count(key, in: suggestions) }
        set {
            if kind == .rotation {
                DayCounters.set(key, newValue, in: &rotations)
            } else {
                DayCounters.set(key, newValue, in: &suggestions)
            }
        }
    }

    private static func count(_ key: String, in list: [Count]) -> Int {
        for i in list.indices where list[i].key == key { return list[i].n }
        return 0
    }

    private static func set(_ key: String, _ n: Int, in list: inout [Count]) {
        if let i = list.firstIndex(where: { $0.key >= key }) {
            if list[i].key == key { list[i].n = n } else { list.insert(Count(key: key, n: n), at: i) }
        } else {
            list.append(Count(key: key, n: n))
        }
    }

    mutating func removeAll() {
        rotations.removeAll()
        suggestions.removeAll()
    }

    /// Every count as `r|instance` or `s|app/kind`, in that key's order (the checkpoint
    /// layout: "r|" sorts before "s|").
    func write(_ w: inout StateWriter) {
        w.varint(UInt64(rotations.count + suggestions.count))
        for (kind, counts) in [(Kind.rotation, rotations), (.suggestion, suggestions)] {
            for c in counts {
                w.string(kind.prefix + c.key)
                w.int(c.n)
            }
        }
    }

    init() {}

    init(_ r: inout StateReader) throws {
        for (key, n) in try r.map({ try $0.intValue() }) {
            if key.hasPrefix("r|") {
                self[.rotation, String(key.dropFirst(2))] = n
            } else if key.hasPrefix("s|") {
                self[.suggestion, String(key.dropFirst(2))] = n
            } else {
                throw StateReader.Malformed(offset: r.offset)
            }
        }
    }
}

/// What a widget did today (the device's local day), counted for the caps of G3:
/// rotations by widget instance, suggestions by `app/kind`.
struct DayCounters: Codable, Hashable {
    /// What is counted.
    enum Kind: Hashable {
        case rotation, suggestion
        /// The prefix of its keys in a checkpoint.
        var prefix: String { self == .rotation ? "r|" : "s|" }
    }

    private(set) var rotations: [String: Int] = [:]
    private(set) var suggestions: [String: Int] = [:]

    var isEmpty: Bool { rotations.isEmpty && suggestions.isEmpty }

    subscript(kind: Kind, key: String) -> Int {
        get { (kind == .rotation ? rotations[key] : suggestions[key]) ?? 0 }
        set {
            if kind == .rotation { rotations[key] = newValue } else { suggestions[key] = newValue }
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
            for (key, n) in counts.count == 1 ? Array(counts) : counts.sorted(by: { $0.key < $1.key }) {
                w.string(kind.prefix + key)
                w.int(n)
            }
        }
    }

    init() {}

    init(_ r: inout StateReader) throws {
        for (key, n) in try r.map({ try $0.intValue() }) {
            if key.hasPrefix("r|") {
                rotations[String(key.dropFirst(2))] = n
            } else if key.hasPrefix("s|") {
                suggestions[String(key.dropFirst(2))] = n
            } else {
                throw StateReader.Malformed(offset: r.offset)
            }
        }
    }
}

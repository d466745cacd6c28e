import Synchronization

/// The interned strings of a store as one process last saw them: id 0 is unused,
/// ids count up from 1 in the order strings were defined.
struct StringSnapshot: Sendable {
    var strings: [String] = [""]
    private var index = StringIndex()

    /// The id of an interned string.
    @inline(__always) func id(of s: String) -> UInt32? { index.id(of: s, in: strings) }

    var count: Int { strings.count - 1 }

    @inline(__always) func string(_ id: UInt64) -> String? {
        id > 0 && id < UInt64(strings.count) ? strings[Int(id)] : nil
    }

    /// Gives every string its own storage, so that threads decoding at once do not
    /// share (and contend for) the same reference counts.
    mutating func makePrivateCopies() {
        strings = strings.map { $0.utf8.count <= 15 ? $0 : String(decoding: Array($0.utf8), as: UTF8.self) }
    }

    /// This snapshot with `copies`' strings, after `copies` took its own copies of the
    /// strings defined since it last did.
    func withPrivateCopies(_ copies: PrivateStrings) -> StringSnapshot {
        if copies.strings.count > strings.count { copies.strings = [""] }
        for s in strings[copies.strings.count...] {
            copies.strings.append(s.utf8.count <= 15 ? s : String(decoding: Array(s.utf8), as: UTF8.self))
        }
        var snapshot = self
        snapshot.strings = copies.strings
        return snapshot
    }

    mutating func append(_ s: String) -> UInt32 {
        let id = UInt32(strings.count)
        strings.append(s)
        index.insert(s, id: id, strings: strings)
        return id
    }
}

/// The process-wide cache of the string table, refreshed from the store when a
/// transaction sees more strings than it holds.
final class StringTable: Sendable {
    private let state = Mutex(StringSnapshot())

    func snapshot() -> StringSnapshot { state.withLock { $0 } }

    /// Keeps `newer` if it knows more strings than the cache.
    func publish(_ newer: StringSnapshot) {
        state.withLock { if newer.strings.count > $0.strings.count { $0 = newer } }
    }
}

/// Assigns ids within one write transaction; new strings become chained definitions.
final class Interner: StringInterning {
    @exclusivity(unchecked) var snapshot: StringSnapshot
    let firstNewID: UInt32
    @exclusivity(unchecked) private(set) var added: [String] = []
    /// For bulk preparation: ids come from a shared table instead.
    private let lookup: ((String) -> UInt32)?

    init(snapshot: StringSnapshot) {
        self.snapshot = snapshot
        self.firstNewID = UInt32(snapshot.strings.count)
        self.lookup = nil
    }

    init(lookup: @escaping (String) -> UInt32) {
        self.snapshot = StringSnapshot()
        self.firstNewID = 0
        self.lookup = lookup
    }

    func id(for string: String) -> UInt32 {
        if let lookup { return lookup(string) }
        if let id = snapshot.id(of: string) { return id }
        added.append(string)
        return snapshot.append(string)
    }
}

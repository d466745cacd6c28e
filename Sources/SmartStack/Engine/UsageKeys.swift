import RecordFormat

/// What a usage record derives from its intent and predicted parameters (the parameters
/// as a dictionary, the pattern key and the hashes), made once for each distinct intent
/// and parameters while a checkpoint is read: a state's records repeat a few of them, and
/// making them is most of the cost of reading a record.
struct UsageKeys {
    struct Derived {
        var parameters: [String: String]
        var patternKey: String?
        var patternHash: UInt64
        var intentHash: UInt64
    }

    private struct Entry {
        /// The identities (`StateReader.stringWithIdentity()`) of the intent (-1 for none)
        /// and of each name and value in turn.
        var identities: [Int]
        var derived: Derived
    }

    /// Entries by a hash of their identities, one a slot: a new one takes the slot of an
    /// older one with the same hash.
    private var slots = [Entry?](repeating: nil, count: 256)
    /// The identities and strings of the record being read, the first `count` of them.
    private var identities: [Int] = []
    private var strings: [String] = []
    private var count = 0

    /// Reads a record's parameters (a map as `StateWriter.map` wrote it) and gives what
    /// the record derives from them and `intent`, whose identity is `intentIdentity`.
    mutating func read(_ r: inout StateReader, intent: String?, intentIdentity: Int) throws -> Derived {
        let n = Int(try r.varint())
        guard n <= r.bytes.count else { throw StateReader.Malformed(offset: r.offset) }
        count = 0
        note(intentIdentity, "")
        for _ in 0..<2 * n {
            let read = try r.stringWithIdentity()
            note(read.identity, read.string)
        }
        let slot = hashedSlot()
        if let kept = slots[slot], matches(kept.identities) { return kept.derived }
        var parameters = [String: String](minimumCapacity: n)
        for k in stride(from: 1, to: count, by: 2) { parameters[strings[k]] = strings[k + 1] }
        let key = intent.map { UsageRecord.patternKey(intent: $0, parameters: parameters) }
        let derived = Derived(
            parameters: parameters, patternKey: key, patternHash: key.map(StringHash.of) ?? 0,
            intentHash: intent.map(StringHash.of) ?? 0)
        slots[slot] = Entry(identities: Array(identities[..<count]), derived: derived)
        return derived
    }

    private mutating func note(_ identity: Int, _ string: String) {
        if count < identities.count {
            identities[count] = identity
            strings[count] = string
        } else {
            identities.append(identity)
            strings.append(string)
        }
        count += 1
    }

    /// The slot of the identities just read.
    private func hashedSlot() -> Int {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15
        for k in 0..<count { h = (h ^ UInt64(bitPattern: Int64(identities[k]))) &* 0xBF58_476D_1CE4_E5B9 }
        return Int(truncatingIfNeeded: h >> 56)
    }

    private func matches(_ kept: [Int]) -> Bool {
        guard kept.count == count else { return false }
        for k in 0..<count where kept[k] != identities[k] { return false }
        return true
    }
}

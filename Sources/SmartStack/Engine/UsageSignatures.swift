/// The `UsageSignature`s of the usage records read from one checkpoint, each made once:
/// a state's records repeat a few apps, intents and parameters, and making what a record
/// derives from them (the dictionary, the pattern key, the hashes) would otherwise be
/// most of the cost of reading it.
struct UsageSignatures {
    private struct Entry {
        /// The identities (`StateReader.stringWithIdentity()`) of the app, the intent (-1
        /// for none), and each name and value in turn.
        var identities: [Int]
        var signature: UsageSignature
    }

    /// Entries by a hash of their identities, one a slot: a new one takes the slot of an
    /// older one with the same hash.
    private var slots = [Entry?](repeating: nil, count: 256)
    /// The identities of the record being read, the first `count` of them.
    private var identities = [Int](repeating: 0, count: 8)
    private var count = 0

    /// Reads a record's app, intent and parameters (as `UsageRecord.write` wrote them)
    /// and gives their signature.
    mutating func read(_ r: inout StateReader) throws -> UsageSignature {
        count = 0
        note(try r.stringWithIdentity().identity)
        note(try r.optional { try $0.stringWithIdentity().identity } ?? -1)
        let n = Int(try r.varint())
        guard n <= r.bytes.count else { throw StateReader.Malformed(offset: r.offset) }
        for _ in 0..<2 * n { note(try r.stringWithIdentity().identity) }
        let slot = hashedSlot()
        if let kept = slots[slot], matches(kept.identities) { return kept.signature }
        var parameters = [String: String](minimumCapacity: n)
        for k in stride(from: 2, to: count, by: 2) {
            parameters[r.string(identity: identities[k])] = r.string(identity: identities[k + 1])
        }
        let signature = UsageSignature(
            app: r.string(identity: identities[0]), intent: identities[1] < 0 ? nil : r.string(identity: identities[1]),
            parameters: parameters)
        slots[slot] = Entry(identities: Array(identities[..<count]), signature: signature)
        return signature
    }

    private mutating func note(_ identity: Int) {
        if count == identities.count { identities += identities }
        identities[count] = identity
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

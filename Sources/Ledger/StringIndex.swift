/// Finds the id of an interned string quickly: an open-addressing table keyed by a
/// fast hash of the UTF-8 bytes, holding ids into the snapshot's string list.
///
/// `Dictionary<String, UInt32>` hashes with SipHash per lookup; this table is what
/// every append does several times per event, so it uses a cheaper word-at-a-time hash.
struct StringIndex: Sendable {
    /// Each slot: the hash's high 32 bits, then the id (0 = empty).
    private var slots: [UInt64]
    private var count = 0

    init(capacity: Int = 1024) {
        slots = [UInt64](repeating: 0, count: capacity)
    }

    /// The id of `s`, given the list the ids point into.
    func id(of s: String, in strings: [String]) -> UInt32? {
        let h = StringHash.of(s)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        let tag = h >> 32
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let id = UInt32(truncatingIfNeeded: entry)
                if strings[Int(id)] == s { return id }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `id` for `s` (which must not be present).
    mutating func insert(_ s: String, id: UInt32, strings: [String]) {
        if (count + 1) * 2 > slots.count { grow(strings) }
        place(StringHash.of(s), id)
        count += 1
    }

    private mutating func place(_ h: UInt64, _ id: UInt32) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = (h >> 32) << 32 | UInt64(id)
    }

    private mutating func grow(_ strings: [String]) {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            let id = UInt32(truncatingIfNeeded: entry)
            place(StringHash.of(strings[Int(id)]), id)
        }
    }
}

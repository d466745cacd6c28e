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

/// A cheap 64-bit hash of a string's UTF-8 bytes, eight bytes at a time: for tables of
/// short keys (names, ids) looked up far more often than `Hasher`'s SipHash is worth.
public enum StringHash {
    /// The hash of `s`'s UTF-8 bytes.
    @inlinable public static func of(_ s: String) -> UInt64 {
        if let h = s.utf8.withContiguousStorageIfAvailable({ of(UnsafeRawBufferPointer($0)) }) { return h }
        var s = s
        return s.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `b`.
    @inlinable public static func of(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        var i = 0
        while i + 8 <= b.count {
            h = (h ^ b.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < b.count {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }
}

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

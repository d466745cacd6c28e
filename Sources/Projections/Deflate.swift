import CZlib

/// zlib's deflate format, for checkpoint states: a state is mostly repeated names and
/// small numbers, and compressing it lets checkpoints sit closer together for the same
/// share of the store.
enum Deflate {
    /// `bytes` compressed at `level` (1: fastest).
    static func compress(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(compressBound(uLong(bytes.count))))
        var length = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                compress2(o.baseAddress, &length, i.baseAddress, uLong(bytes.count), level)
            }
        }
        precondition(status == Z_OK, "deflate failed with status \(status)")
        out.removeSubrange(Int(length)...)
        return out
    }

    /// The `size` bytes that `bytes` inflates to, or nil when they are not a deflate
    /// stream of exactly that size.
    static func decompress(_ bytes: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
        guard size >= 0, size <= 1 << 30 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        var length = uLongf(size)
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                uncompress(o.baseAddress, &length, i.baseAddress, uLong(i.count))
            }
        }
        guard status == Z_OK, Int(length) == size else { return nil }
        return out
    }
}

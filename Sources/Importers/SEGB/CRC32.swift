import CSystemZlib

/// CRC-32 (IEEE 802.3), the checksum SEGB records carry: zlib's `crc32`.
enum CRC32 {
    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var p = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return 0 }
        var crc = crc32(0, nil, 0)
        var left = bytes.count
        while left > 0 {
            let n = min(left, Int(UInt32.max >> 1))
            crc = crc32(crc, p, uInt(n))
            p += n
            left -= n
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

internal import CChecksum

/// CRC-32C (Castagnoli), the checksum of every stored record: the processor's
/// instruction where it has one, else slicing-by-8 in software (same results).
public enum CRC32C {
    static let hardware = cs_crc32c_hardware_available() == 1

    static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            tables[0][i] = c
        }
        for i in 0..<256 {
            for t in 1..<8 {
                let prev = tables[t - 1][i]
                tables[t][i] = (prev >> 8) ^ tables[0][Int(prev & 0xFF)]
            }
        }
        return tables
    }()
    static let flat: [UInt32] = tables.flatMap { $0 }

    /// Continues a CRC over `data`. Start with `crc: 0`.
    public static func update(_ crc: UInt32, _ data: UnsafeRawBufferPointer) -> UInt32 {
        if hardware {
            guard let base = data.baseAddress else { return crc }
            return ~cs_crc32c_hardware(~crc, base, data.count)
        }
        return software(crc, data)
    }

    /// The software implementation (also the reference the hardware path is tested against).
    public static func software(_ crc: UInt32, _ data: UnsafeRawBufferPointer) -> UInt32 {
        flat.withUnsafeBufferPointer { t in
            var c = ~crc
            var i = 0
            let n = data.count
            while i + 8 <= n {
                let lo = data.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian ^ c
                let hi = data.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self).littleEndian
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(data[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
            return ~c
        }
    }

    /// The CRC of `data`.
    public static func checksum(_ data: UnsafeRawBufferPointer) -> UInt32 { update(0, data) }

    /// The CRC of a byte array.
    public static func checksum(_ data: [UInt8]) -> UInt32 { data.withUnsafeBytes { checksum($0) } }
}

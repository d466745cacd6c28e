import Testing

@testable import RecordFormat

@Suite("Varints")
struct VarintTests {
    /// Values on both sides of every length a varint can take, and a few in between.
    static let values: [UInt64] =
        (0..<64).flatMap { bit -> [UInt64] in
            let power = UInt64(1) << UInt64(bit)
            return [power - 1, power, power + 1, power | (power >> 1)]
        } + [.max, .max - 1, 300]

    @Test("each value is written as LEB128 and read back, after other bytes")
    func roundTrip() throws {
        var writer = ByteWriter()
        writer.write(0xEE)
        for v in Self.values { writer.writeVarint(v) }
        let (first, read, atEnd) = try writer.bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            let first = try reader.readFixed(UInt8.self)
            let read = try Self.values.map { _ in try reader.readVarint() }
            return (first, read, reader.isAtEnd)
        }
        #expect(first == 0xEE)
        #expect(read == Self.values)
        #expect(atEnd)
    }

    @Test("the bytes are the little-endian groups of seven bits, the last without its high bit")
    func bytes() {
        let cases: [(UInt64, [UInt8])] = [
            (0, [0]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]), (16_383, [0xFF, 0x7F]),
            (16_384, [0x80, 0x80, 0x01]),
            (.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
        ]
        for (value, expected) in cases {
            var writer = ByteWriter()
            writer.writeVarint(value)
            #expect(writer.bytes == expected, "\(value)")
        }
    }

    @Test("signed values round-trip through zigzag")
    func signed() throws {
        let values: [Int64] = [0, -1, 1, -64, 64, .min, .max, 1_780_000_000_000_000, -1_780_000_000_000_000]
        var writer = ByteWriter()
        for v in values { writer.writeSignedVarint(v) }
        let read = try writer.bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return try values.map { _ in try reader.readSignedVarint() }
        }
        #expect(read == values)
    }
}

/// Appends little-endian integers, varints and bytes to a growing buffer.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Creates a writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written.
    public var count: Int { bytes.count }

    /// Forgets the bytes, keeping the allocation.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Writes one byte.
    @inlinable public mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Writes bytes as they are.
    @inlinable public mutating func write(contentsOf data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// Writes a fixed-width little-endian integer.
    @inlinable public mutating func writeFixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes an unsigned LEB128 varint.
    @inlinable public mutating func writeVarint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        // Longer values (times, lengths) are put together on the stack and appended at once:
        // one capacity check, not one for each byte.
        var buffer: (UInt64, UInt64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &buffer) { raw -> Int in
            var v = value
            var i = 0
            while v >= 0x80 {
                raw[i] = UInt8(truncatingIfNeeded: v) | 0x80
                v >>= 7
                i += 1
            }
            raw[i] = UInt8(v)
            return i + 1
        }
        withUnsafeBytes(of: &buffer) { raw in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<count]))
        }
    }

    /// Writes a signed integer as a zigzag varint.
    @inlinable public mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Writes a length-prefixed UTF-8 string.
    @inlinable public mutating func writeString(_ string: String) {
        var s = string
        s.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes a Double's bits, little-endian.
    @inlinable public mutating func writeDouble(_ value: Double) { writeFixed(value.bitPattern) }
}

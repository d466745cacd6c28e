/// Reads what `ByteWriter` wrote, with bounds checks: a short or malformed buffer
/// throws `ByteReader.Error` instead of reading past its end.
public struct ByteReader {
    /// The bytes being read; valid as long as their owner keeps them.
    public let buffer: UnsafeRawBufferPointer
    /// The offset of the next byte.
    public var offset: Int

    /// Thrown when the buffer ends early or holds a malformed value.
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        /// Where reading failed.
        public let offset: Int
        /// What was expected.
        public let expected: String
        public var description: String { "malformed record at byte \(offset): expected \(expected)" }
        /// Creates an error.
        public init(offset: Int, expected: String) {
            self.offset = offset
            self.expected = expected
        }
    }

    /// Reads from `buffer`, starting at `offset`.
    public init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    /// Bytes left to read.
    @inlinable public var remaining: Int { buffer.count - offset }
    /// Whether every byte was read.
    @inlinable public var isAtEnd: Bool { offset >= buffer.count }

    /// Reads one byte.
    @inlinable @inline(__always) public mutating func readByte() throws(Error) -> UInt8 {
        guard offset < buffer.count else { throw Error(offset: offset, expected: "a byte") }
        defer { offset += 1 }
        return buffer[offset]
    }

    /// Reads a fixed-width little-endian integer.
    @inlinable public mutating func readFixed<T: FixedWidthInteger>(_: T.Type = T.self) throws(Error) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw Error(offset: offset, expected: "\(size) bytes") }
        let v = buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return T(littleEndian: v)
    }

    /// Reads an unsigned LEB128 varint.
    @inlinable @inline(__always) public mutating func readVarint() throws(Error) -> UInt64 {
        if offset < buffer.count, buffer[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(buffer[offset])
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count, shift < 64 else { throw Error(offset: offset, expected: "a varint") }
            let b = buffer[offset]
            offset += 1
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    /// Reads a varint that must fit an `Int` (a length or an index).
    @inlinable @inline(__always) public mutating func readLength() throws(Error) -> Int {
        let v = try readVarint()
        guard v <= UInt64(Int32.max) else { throw Error(offset: offset, expected: "a length") }
        return Int(v)
    }

    /// Reads a zigzag varint.
    @inlinable @inline(__always) public mutating func readSignedVarint() throws(Error) -> Int64 {
        let v = try readVarint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Reads `count` raw bytes.
    @inlinable public mutating func readBytes(_ count: Int) throws(Error) -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw Error(offset: offset, expected: "\(count) bytes") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// Reads a length-prefixed UTF-8 string.
    @inlinable public mutating func readString() throws(Error) -> String {
        let n = try readLength()
        let raw = try readBytes(n)
        return String(decoding: raw, as: UTF8.self)
    }

    /// Reads a Double stored as its bits.
    @inlinable public mutating func readDouble() throws(Error) -> Double {
        Double(bitPattern: try readFixed(UInt64.self))
    }
}

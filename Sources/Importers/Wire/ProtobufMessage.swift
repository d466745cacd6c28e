/// A protobuf message read without its schema: the fields in wire order, by number.
///
/// Biome payloads are protobuf without published `.proto` files; decoders address fields by
/// the numbers in docs/forensic-sources.md. A length-delimited field may be a string, bytes
/// or a nested message; the accessors say which reading they want.
public struct ProtobufMessage: Sendable {
    /// One field value as the wire format carries it.
    public enum Value: Sendable {
        /// Wire type 0.
        case varint(UInt64)
        /// Wire type 1 (a double or a 64-bit integer).
        case fixed64(UInt64)
        /// Wire type 5 (a float or a 32-bit integer).
        case fixed32(UInt32)
        /// Wire type 2: a string, bytes or a nested message.
        case bytes(ArraySlice<UInt8>)
    }

    /// The deepest nesting followed by `message(_:)` (a limit against hostile input).
    public static let maximumDepth = 32

    /// The fields, in the order they appear.
    public private(set) var fields: [(number: Int, value: Value)] = []
    let depth: Int

    /// Parses `bytes` as one message.
    /// - Throws: `WireFormatError` with the byte offset of the first malformed field.
    public init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) throws(WireFormatError) {
        guard depth <= Self.maximumDepth else {
            throw WireFormatError(
                offset: bytes.startIndex, message: "protobuf nested deeper than \(Self.maximumDepth) levels")
        }
        self.depth = depth
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let fieldStart = i
            let key = try Self.varint(bytes, &i)
            let number = Int(key >> 3)
            guard number > 0, number < 1 << 29 else {
                throw WireFormatError(offset: fieldStart, message: "protobuf field number \(number) is out of range")
            }
            switch key & 7 {
            case 0: fields.append((number, .varint(try Self.varint(bytes, &i))))
            case 1: fields.append((number, .fixed64(try Self.fixed(bytes, &i, 8))))
            case 2:
                let n = try Self.varint(bytes, &i)
                guard n <= UInt64(bytes.endIndex - i) else {
                    throw WireFormatError(
                        offset: fieldStart,
                        message: "protobuf field \(number) claims \(n) bytes; only \(bytes.endIndex - i) remain")
                }
                fields.append((number, .bytes(bytes[i..<i + Int(n)])))
                i += Int(n)
            case 5: fields.append((number, .fixed32(UInt32(try Self.fixed(bytes, &i, 4)))))
            default:
                throw WireFormatError(
                    offset: fieldStart, message: "protobuf wire type \(key & 7) is not supported (groups or garbage)")
            }
        }
    }

    /// A little-endian fixed-width value of `width` bytes.
    private static func fixed(_ bytes: ArraySlice<UInt8>, _ i: inout Int, _ width: Int) throws(WireFormatError)
        -> UInt64
    {
        guard bytes.endIndex - i >= width else {
            throw WireFormatError(offset: i, message: "protobuf fixed\(8 * width) runs past the end")
        }
        var v: UInt64 = 0
        for k in 0..<width { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
        i += width
        return v
    }

    private static func varint(_ bytes: ArraySlice<UInt8>, _ i: inout Int) throws(WireFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = i
        while i < bytes.endIndex {
            let b = bytes[i]
            i += 1
            guard shift < 64 else { break }
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
        throw WireFormatError(offset: start, message: "protobuf varint is truncated or longer than 10 bytes")
    }

    /// The first value of field `number`.
    public func first(_ number: Int) -> Value? { fields.first { $0.number == number }?.value }

    /// Every value of field `number`, in order (a repeated field).
    public func all(_ number: Int) -> [Value] { fields.filter { $0.number == number }.map(\.value) }

    /// Field `number` read as UTF-8 text.
    public func string(_ number: Int) -> String? {
        guard case .bytes(let b)? = first(number) else { return nil }
        return String(validating: b, as: UTF8.self)
    }

    /// Field `number` read as raw bytes.
    public func bytes(_ number: Int) -> ArraySlice<UInt8>? {
        guard case .bytes(let b)? = first(number) else { return nil }
        return b
    }

    /// Field `number` as an integer (a varint, or a fixed-width integer).
    public func integer(_ number: Int) -> Int64? {
        switch first(number) {
        case .varint(let v)?: return Int64(bitPattern: v)
        case .fixed32(let v)?: return Int64(Int32(bitPattern: v))
        case .fixed64(let v)?: return Int64(bitPattern: v)
        default: return nil
        }
    }

    /// Field `number` as a double (a fixed64 holding IEEE-754 bits, or a fixed32 float).
    public func double(_ number: Int) -> Double? {
        switch first(number) {
        case .fixed64(let v)?: return Double(bitPattern: v)
        case .fixed32(let v)?: return Double(Float(bitPattern: v))
        default: return nil
        }
    }

    /// Field `number` parsed as a nested message; nil when absent or not a message.
    public func message(_ number: Int) -> ProtobufMessage? {
        guard case .bytes(let b)? = first(number) else { return nil }
        return try? ProtobufMessage(b, depth: depth + 1)
    }

    /// Every value of field `number` that parses as a nested message.
    public func messages(_ number: Int) -> [ProtobufMessage] {
        all(number).compactMap {
            guard case .bytes(let b) = $0 else { return nil }
            return try? ProtobufMessage(b, depth: depth + 1)
        }
    }

    /// Follows nested messages along `path` (e.g. `[2, 3, 1]` for field 2.3.1) and returns
    /// the last message; nil if a step is missing.
    public func message(path: [Int]) -> ProtobufMessage? {
        var m = self
        for n in path {
            guard let next = m.message(n) else { return nil }
            m = next
        }
        return m
    }
}

/// Malformed binary input: what is wrong and at which byte.
public struct WireFormatError: Error, Sendable, CustomStringConvertible {
    /// Byte offset in the buffer read.
    public var offset: Int
    /// What is wrong.
    public var message: String

    public var description: String { "\(message) (byte \(offset))" }
}

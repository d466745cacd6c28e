/// Writes protobuf wire format by field number, for generating Biome payloads.
public struct ProtobufWriter: Sendable {
    /// The bytes written.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty message.
    public init() {}

    private mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private mutating func key(_ field: Int, _ wire: UInt64) { varint(UInt64(field) << 3 | wire) }

    /// A varint field.
    public mutating func int(_ field: Int, _ v: Int64) {
        key(field, 0)
        varint(UInt64(bitPattern: v))
    }

    /// A fixed64 field holding a double.
    public mutating func double(_ field: Int, _ v: Double) {
        key(field, 1)
        let bits = v.bitPattern
        for k in 0..<8 { bytes.append(UInt8((bits >> (8 * UInt64(k))) & 0xFF)) }
    }

    /// A length-delimited field.
    public mutating func bytes(_ field: Int, _ b: [UInt8]) {
        key(field, 2)
        varint(UInt64(b.count))
        bytes += b
    }

    /// A string field.
    public mutating func string(_ field: Int, _ s: String) { bytes(field, Array(s.utf8)) }

    /// A nested message field.
    public mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        build(&inner)
        bytes(field, inner.bytes)
    }
}

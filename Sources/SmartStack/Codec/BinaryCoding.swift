import RecordFormat

/// Writes domain payloads: interned vocabulary, compact numbers, times relative to the
/// event's own time.
struct BinaryOut {
    var w: PayloadWriter
    let base: Timestamp

    @inline(__always)
    mutating func interned(_ s: String) { w.writeInterned(s) }
    @inline(__always)
    mutating func text(_ s: String) { w.bytes.writeString(s) }
    @inline(__always)
    mutating func bool(_ b: Bool) { w.bytes.write(b ? 1 : 0) }
    @inline(__always)
    mutating func byte(_ b: UInt8) { w.bytes.write(b) }
    @inline(__always)
    mutating func count(_ n: Int) { w.bytes.writeVarint(UInt64(n)) }

    /// Tag 0 and a zigzag varint for integral values below 2^53, else tag 1 and the bits.
    @inline(__always)
    mutating func number(_ d: Double) {
        if abs(d) < 9_007_199_254_740_992, Double(Int64(d)) == d, !(d == 0 && d.sign == .minus) {
            w.bytes.write(0)
            w.bytes.writeSignedVarint(Int64(d))
        } else {
            w.bytes.write(1)
            w.bytes.writeDouble(d)
        }
    }

    @inline(__always)
    mutating func time(_ t: Timestamp) {
        w.bytes.writeSignedVarint(t.microseconds &- base.microseconds)
        w.bytes.writeSignedVarint(Int64(t.offsetMinutes) - Int64(base.offsetMinutes))
    }

    @inline(__always)
    mutating func optional<T>(_ v: T?, _ write: (inout BinaryOut, T) -> Void) {
        if let v {
            w.bytes.write(1)
            write(&self, v)
        } else {
            w.bytes.write(0)
        }
    }

    @inline(__always)
    mutating func extras(_ members: [JSONMember]) {
        if members.isEmpty {
            w.bytes.write(0)
            return
        }
        var c = CanonicalWriter(capacity: 64)
        c.value(.object(members))
        w.bytes.writeVarint(UInt64(c.bytes.count))
        w.bytes.write(contentsOf: c.bytes)
    }

    @inline(__always)
    mutating func value(_ v: JSONValue) {
        var c = CanonicalWriter(capacity: 16)
        c.value(v)
        w.bytes.writeVarint(UInt64(c.bytes.count))
        w.bytes.write(contentsOf: c.bytes)
    }
}

/// Reads what `BinaryOut` wrote.
struct BinaryIn {
    var r: PayloadReader
    let base: Timestamp

    typealias Failure = ByteReader.Error

    @inline(__always)
    mutating func interned() throws(Failure) -> String { try r.readInterned() }
    @inline(__always)
    mutating func text() throws(Failure) -> String { try r.bytes.readString() }
    @inline(__always)
    mutating func bool() throws(Failure) -> Bool { try r.bytes.readByte() != 0 }
    @inline(__always)
    mutating func byte() throws(Failure) -> UInt8 { try r.bytes.readByte() }
    @inline(__always)
    mutating func count() throws(Failure) -> Int { try r.bytes.readLength() }

    @inline(__always)
    mutating func number() throws(Failure) -> Double {
        switch try r.bytes.readByte() {
        case 0: return Double(try r.bytes.readSignedVarint())
        case 1: return try r.bytes.readDouble()
        default: throw Failure(offset: r.bytes.offset - 1, expected: "a number tag")
        }
    }

    @inline(__always)
    mutating func time() throws(Failure) -> Timestamp {
        let micros = base.microseconds &+ (try r.bytes.readSignedVarint())
        let offset = Int64(base.offsetMinutes) + (try r.bytes.readSignedVarint())
        guard let o = Int16(exactly: offset), Timestamp.isStorable(microseconds: micros, offsetMinutes: o) else {
            throw Failure(offset: r.bytes.offset, expected: "a time in 1970-2200 with an offset under 24 hours")
        }
        return Timestamp(microseconds: micros, offsetMinutes: o)
    }

    @inline(__always)
    mutating func optional<T>(_ read: (inout BinaryIn) throws(Failure) -> T) throws(Failure) -> T? {
        try r.bytes.readByte() != 0 ? try read(&self) : nil
    }

    @inline(__always)
    mutating func extras() throws(Failure) -> [JSONMember] {
        try extras(length: try r.bytes.readLength())
    }

    /// The unknown fields stored in the next `n` bytes (0: none).
    mutating func extras(length n: Int) throws(Failure) -> [JSONMember] {
        if n == 0 { return [] }
        guard case .object(let members) = try parsedJSON(n) else {
            throw Failure(offset: r.bytes.offset, expected: "stored extra fields")
        }
        return members
    }

    @inline(__always)
    mutating func value() throws(Failure) -> JSONValue {
        try parsedJSON(try r.bytes.readLength())
    }

    private mutating func parsedJSON(_ n: Int) throws(Failure) -> JSONValue {
        let raw = try r.bytes.readBytes(n)
        let tape = JSONTape()
        do {
            try tape.parse(raw)
        } catch {
            throw Failure(offset: r.bytes.offset, expected: "stored JSON")
        }
        guard let v = tape.withReader(raw, { $0.value(0) }) else {
            throw Failure(offset: r.bytes.offset, expected: "stored JSON")
        }
        return v
    }
}

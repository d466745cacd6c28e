import RecordFormat

/// How one JSON value reads (at its token) and writes, without its key; with its binary
/// form, the building block of a field.
protocol ValueCodec: BinaryFieldCodec, Sendable {
    /// Reads the value at `token`.
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Value
    /// Writes the value.
    func writeValue(_ w: inout CanonicalWriter, _ value: Value)
    /// The JSON type, as the documentation's table shows it.
    var type: String { get }
}

/// How a string is kept in the binary form.
enum StringStorage: Sendable {
    /// In the store's vocabulary (ids, kinds, names: values that repeat).
    case interned
    /// Written out in full (free text, ids that never repeat).
    case verbatim
}

/// A string; non-empty unless said otherwise.
struct Text: ValueCodec {
    var nonEmpty = true
    var storage = StringStorage.interned

    func readValue(_ f: ObjectFields, _ token: Int) throws -> String {
        let s = try f.stringValue(token)
        if nonEmpty && s.isEmpty { throw FieldError(token: token, message: "must not be empty") }
        return s
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: String) { w.string(value) }

    func encode(_ out: inout BinaryOut, _ value: String) {
        switch storage {
        case .interned: out.interned(value)
        case .verbatim: out.text(value)
        }
    }

    func decode(_ b: inout BinaryIn) throws -> String {
        switch storage {
        case .interned: try b.interned()
        case .verbatim: try b.text()
        }
    }

    var type: String { nonEmpty ? "string (non-empty)" : "string" }
}

/// One of a fixed list of strings.
struct Choice: ValueCodec {
    let allowed: [String]

    init(_ allowed: [String]) { self.allowed = allowed }

    func readValue(_ f: ObjectFields, _ token: Int) throws -> String { try f.enumValue(token, allowed) }
    func writeValue(_ w: inout CanonicalWriter, _ value: String) { w.string(value) }
    func encode(_ out: inout BinaryOut, _ value: String) { out.interned(value) }
    func decode(_ b: inout BinaryIn) throws -> String { try b.interned() }

    var type: String { allowed.map { "`\"\($0)\"`" }.joined(separator: " \\| ") }
}

/// `true` or `false`.
struct Flag: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Bool { try f.boolValue(token) }
    func writeValue(_ w: inout CanonicalWriter, _ value: Bool) { w.bool(value) }
    func encode(_ out: inout BinaryOut, _ value: Bool) { out.bool(value) }
    func decode(_ b: inout BinaryIn) throws -> Bool { try b.bool() }

    var type: String { "boolean" }
}

/// A finite number.
struct Number: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Double { try f.numberValue(token) }
    func writeValue(_ w: inout CanonicalWriter, _ value: Double) { w.number(value) }
    func encode(_ out: inout BinaryOut, _ value: Double) { out.number(value) }
    func decode(_ b: inout BinaryIn) throws -> Double { try b.number() }

    var type: String { "number" }
}

/// A duration in seconds: from 0 to `EventLimits.maximumDurationSeconds` (ten years).
struct Seconds: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Double {
        let d = try f.numberValue(token)
        guard d >= 0 else {
            throw FieldError(
                token: token, message: "must not be negative (got \(CanonicalWriter.text(of: .number(d))))")
        }
        guard d <= EventLimits.maximumDurationSeconds else {
            throw FieldError(
                token: token,
                message: "must be at most 315576000 s (10 years) (got \(CanonicalWriter.text(of: .number(d))))")
        }
        return d
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: Double) { w.number(value) }
    func encode(_ out: inout BinaryOut, _ value: Double) { out.number(value) }
    func decode(_ b: inout BinaryIn) throws -> Double { try b.number() }

    var type: String { "number of seconds, 0 to 315576000" }
}

/// A place in a stack: a whole number from 0 (the top).
struct Position: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Int {
        let d = try f.numberValue(token)
        guard d >= 0, d == d.rounded(), d < 1_000_000 else {
            throw FieldError(token: token, message: "must be a whole number from 0 (the top)")
        }
        return Int(d)
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: Int) { w.integer(value) }
    func encode(_ out: inout BinaryOut, _ value: Int) { out.count(value) }
    func decode(_ b: inout BinaryIn) throws -> Int { try b.count() }

    var type: String { "whole number from 0 (the top)" }
}

/// An RFC 3339 time, stored relative to the event's own time.
struct Time: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Timestamp { try f.timeValue(token) }
    func writeValue(_ w: inout CanonicalWriter, _ value: Timestamp) { w.time(value) }
    func encode(_ out: inout BinaryOut, _ value: Timestamp) { out.time(value) }
    func decode(_ b: inout BinaryIn) throws -> Timestamp { try b.time() }

    var type: String { "RFC 3339 time" }
}

/// An object of another shape.
struct Nested<S: Shape>: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> S { try S.decode(f.r, token) }
    func writeValue(_ w: inout CanonicalWriter, _ value: S) { value.write(&w) }
    func encode(_ out: inout BinaryOut, _ value: S) { value.encode(&out) }
    func decode(_ b: inout BinaryIn) throws -> S { try S(binary: &b) }

    var type: String { "object (\(S.self))" }
}

/// An array of values, at most `limit` of them; stored as a count and the values.
struct List<Element: ValueCodec>: ValueCodec {
    let element: Element
    let limit: Int

    init(_ element: Element, limit: Int) {
        self.element = element
        self.limit = limit
    }

    func readValue(_ f: ObjectFields, _ token: Int) throws -> [Element.Value] {
        let items = try f.elements(of: token, limit: limit)
        var out = [Element.Value]()
        out.reserveCapacity(items.count)
        for t in items { out.append(try element.readValue(f, t)) }
        return out
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: [Element.Value]) {
        w.beginArray()
        for e in value { element.writeValue(&w, e) }
        w.endArray()
    }

    func encode(_ out: inout BinaryOut, _ value: [Element.Value]) {
        out.count(value.count)
        for e in value { element.encode(&out, e) }
    }

    func decode(_ b: inout BinaryIn) throws -> [Element.Value] {
        let n = try b.count()
        var out = [Element.Value]()
        out.reserveCapacity(min(n, 10_000))
        for _ in 0..<n { out.append(try element.decode(&b)) }
        return out
    }

    var type: String { "array of \(element.type), at most \(limit)" }
}

/// One byte of the binary form (flags packed together, a tag).
struct Byte: BinaryFieldCodec {
    func encode(_ out: inout BinaryOut, _ value: UInt8) { out.byte(value) }
    func decode(_ b: inout BinaryIn) throws -> UInt8 { try b.byte() }
}

/// A count of the binary form (a varint).
struct Count: BinaryFieldCodec {
    func encode(_ out: inout BinaryOut, _ value: Int) { out.count(value) }
    func decode(_ b: inout BinaryIn) throws -> Int { try b.count() }
}

/// One of the raw values of a string enumeration, stored in the vocabulary.
struct RawChoice<E: RawRepresentable & CaseIterable>: ValueCodec where E.RawValue == String {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> E {
        let s = try f.enumValue(token, E.allCases.map(\.rawValue))
        return E(rawValue: s)!
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: E) { w.string(value.rawValue) }
    func encode(_ out: inout BinaryOut, _ value: E) { out.interned(value.rawValue) }

    func decode(_ b: inout BinaryIn) throws -> E {
        guard let e = E(rawValue: try b.interned()) else {
            throw ByteReader.Error(offset: b.r.bytes.offset, expected: "one of \(E.allCases.map(\.rawValue))")
        }
        return e
    }

    var type: String { Choice(E.allCases.map(\.rawValue)).type }
}

public import RecordFormat

/// A JSON object shape of the event contract: decoded from a tape with validation,
/// written in canonical form, and stored in the compact binary form.
protocol Shape: Hashable, Sendable {
    /// Decodes and validates the object; unknown keys are kept.
    init(fields: inout ObjectFields) throws(FieldError)
    /// Writes the members (in canonical order) into an open object.
    func writeMembers(_ w: inout CanonicalWriter)
    /// Writes the binary form.
    func encode(_ out: inout BinaryOut)
    /// Reads the binary form.
    init(binary: inout BinaryIn) throws(ByteReader.Error)
}

extension Shape {
    /// Decodes the object at `token`.
    static func decode(_ r: TapeReader, _ token: Int) throws(FieldError) -> Self {
        var f = try ObjectFields(r, token)
        return try Self(fields: &f)
    }

    /// Writes the whole object.
    func write(_ w: inout CanonicalWriter) {
        w.beginObject()
        writeMembers(&w)
        w.endObject()
    }
}

extension ObjectFields {
    /// Decodes a nested shape under `name` (required).
    mutating func shape<S: Shape>(_ name: StaticString, _: S.Type = S.self) throws(FieldError) -> S {
        let t = try require(name)
        return try S.decode(r, t)
    }

    /// Decodes a nested shape that may be absent or null.
    mutating func nullableShape<S: Shape>(_ name: StaticString, _: S.Type = S.self) throws(FieldError) -> S? {
        guard let t = take(name), !isNull(t) else { return nil }
        return try S.decode(r, t)
    }

    /// Decodes an array of shapes.
    mutating func shapes<S: Shape>(_ name: StaticString, limit: Int, _: S.Type = S.self) throws(FieldError) -> [S] {
        let items = try array(name, limit: limit) ?? []
        var out = [S]()
        out.reserveCapacity(items.count)
        for t in items {
            out.append(try S.decode(r, t))
        }
        return out
    }
}

extension BinaryOut {
    mutating func shape(_ s: some Shape) { s.encode(&self) }
    mutating func shapes(_ list: [some Shape]) {
        count(list.count)
        for s in list { s.encode(&self) }
    }
}

extension BinaryIn {
    @inline(__always)
    mutating func shape<S: Shape>(_: S.Type = S.self) throws(ByteReader.Error) -> S { try S(binary: &self) }
    mutating func shapes<S: Shape>(_: S.Type = S.self) throws(ByteReader.Error) -> [S] {
        let n = try count()
        var out = [S]()
        out.reserveCapacity(min(n, 10_000))
        for _ in 0..<n { out.append(try S(binary: &self)) }
        return out
    }
}

/// The contract's limits on collections.
enum ContractLimits {
    static let timelineEntries = 10_000
    static let setMembers = 1_000
    static let intentParameters = 64
    static let stackMembers = 1_000
    static let layoutStacks = 1_000
    static let lineBytes = 8 << 20
}

/// The contract's limits on durations and on the times computed from them (docs/events.md,
/// validity rules): every instant the engine can derive from a valid event is a time the
/// contract allows, so no answer needs a time it cannot write.
public enum EventLimits {
    /// The longest `duration`: 315,576,000 s (ten Julian years).
    public static let maximumDurationSeconds: Double = 315_576_000

    /// A valid duration in whole microseconds (a stored value past the limit is taken at it).
    public static func micros(_ seconds: Double) -> Int64 {
        Int64(min(max(seconds, 0), maximumDurationSeconds) * 1_000_000)
    }

    /// Whether `start + seconds` stays before the end of year 2200.
    public static func endFits(_ start: Timestamp, plus seconds: Double) -> Bool {
        start.microseconds + micros(seconds) < Timestamp.limit.microseconds
    }

    /// Whether `end - seconds` stays at or after 1970.
    public static func startFits(_ end: Timestamp, minus seconds: Double) -> Bool {
        end.microseconds - micros(seconds) >= 0
    }
}

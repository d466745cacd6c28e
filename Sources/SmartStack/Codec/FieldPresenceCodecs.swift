import RecordFormat

/// A field that must be present.
struct Required<C: ValueCodec>: FieldCodec {
    let value: C

    init(_ value: C) { self.value = value }

    @inline(__always)
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> C.Value {
        try value.readValue(f, try f.require(name))
    }

    @inline(__always)
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ v: C.Value) {
        w.key(name)
        value.writeValue(&w, v)
    }

    @inline(__always)
    func encode(_ out: inout BinaryOut, _ v: C.Value) { value.encode(&out, v) }
    @inline(__always)
    func decode(_ b: inout BinaryIn) throws -> C.Value { try value.decode(&b) }

    var summary: FieldSummary { FieldSummary(type: value.type, presence: "required") }
}

/// A field that may be absent (nil), written only when present; stored after a presence byte.
struct Omittable<C: ValueCodec>: FieldCodec {
    let value: C

    init(_ value: C) { self.value = value }

    @inline(__always)
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> C.Value? {
        guard let t = f.take(name) else { return nil }
        return try value.readValue(f, t)
    }

    @inline(__always)
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ v: C.Value?) {
        guard let v else { return }
        w.key(name)
        value.writeValue(&w, v)
    }

    @inline(__always)
    func encode(_ out: inout BinaryOut, _ v: C.Value?) {
        if let v {
            out.byte(1)
            value.encode(&out, v)
        } else {
            out.byte(0)
        }
    }

    @inline(__always)
    func decode(_ b: inout BinaryIn) throws -> C.Value? {
        try b.byte() != 0 ? try value.decode(&b) : nil
    }

    var summary: FieldSummary { FieldSummary(type: value.type, presence: "optional") }
}

/// A field that may be absent or `null` (nil), always written (`null` when nil); stored
/// after a presence byte.
struct Nullable<C: ValueCodec>: FieldCodec {
    let value: C
    /// Said when the key is absent, if it must be present (even as `null`).
    let required: String?

    init(_ value: C, required: String? = nil) {
        self.value = value
        self.required = required
    }

    @inline(__always)
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> C.Value? {
        guard let t = f.take(name) else {
            if let required { throw f.error(name, required) }
            return nil
        }
        if f.isNull(t) { return nil }
        return try value.readValue(f, t)
    }

    @inline(__always)
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ v: C.Value?) {
        w.key(name)
        if let v { value.writeValue(&w, v) } else { w.null() }
    }

    @inline(__always)
    func encode(_ out: inout BinaryOut, _ v: C.Value?) { Omittable(value).encode(&out, v) }
    @inline(__always)
    func decode(_ b: inout BinaryIn) throws -> C.Value? { try Omittable(value).decode(&b) }

    var summary: FieldSummary {
        FieldSummary(type: value.type, presence: required == nil ? "optional, may be null" : "required, may be null")
    }
}

/// A field with a default: absent means the default, which is not written back unless
/// `written`. The binary form always holds the value.
struct Defaulted<C: ValueCodec>: FieldCodec where C.Value: Equatable {
    let value: C
    let fallback: C.Value
    let written: Bool

    init(_ value: C, _ fallback: C.Value, written: Bool = false) {
        self.value = value
        self.fallback = fallback
        self.written = written
    }

    @inline(__always)
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> C.Value {
        guard let t = f.take(name) else { return fallback }
        return try value.readValue(f, t)
    }

    @inline(__always)
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ v: C.Value) {
        guard written || v != fallback else { return }
        w.key(name)
        value.writeValue(&w, v)
    }

    @inline(__always)
    func encode(_ out: inout BinaryOut, _ v: C.Value) { value.encode(&out, v) }
    @inline(__always)
    func decode(_ b: inout BinaryIn) throws -> C.Value { try value.decode(&b) }

    var summary: FieldSummary {
        var w = CanonicalWriter(capacity: 16)
        value.writeValue(&w, fallback)
        return FieldSummary(type: value.type, presence: "optional, default `\(w.text)`")
    }
}

/// The keys a shape does not name, kept in input order and written back after its own.
struct Extras: FieldCodec {
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> [JSONMember] { try f.extras() }
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ v: [JSONMember]) { w.members(v) }
    func encode(_ out: inout BinaryOut, _ v: [JSONMember]) { out.extras(v) }
    func decode(_ b: inout BinaryIn) throws -> [JSONMember] { try b.extras() }

    /// Most objects have no unknown keys: an empty list read over an empty one is left as is.
    func decode(_ b: inout BinaryIn, into value: inout [JSONMember]) throws {
        let n = try b.count()
        if n == 0 && value.isEmpty { return }
        value = try b.extras(length: n)
    }

    var summary: FieldSummary { FieldSummary(type: "any other key", presence: "kept as given") }
}

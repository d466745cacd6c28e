import RecordFormat

/// One pass over a shape's fields in contract order. A shape's `describe(_:)` is its one
/// description: the JSON reader, the canonical writer, the binary writer and reader and the
/// documentation's field tables are each a visitor of it.
///
/// A field is in both forms (`field`), in the JSON form only (`jsonOnly`: say, two flags the
/// binary form packs into one byte), or in the binary form only (`binaryOnly`: that byte, a
/// computed property over the JSON fields).
///
/// The visitors and codecs throw untyped errors: the optimizer specializes generic
/// requirements that throw `any Error` all the way down, and not those with typed throws.
/// The JSON reader throws only `FieldError` and the binary reader only `ByteReader.Error`;
/// the shapes' own initializers give them back their types.
protocol FieldVisitor {
    /// A field of both forms.
    mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) throws
    /// A field of the JSON form only.
    mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) throws
    /// A value of the binary form only.
    mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) throws
}

/// How one field reads and writes its JSON form, key included (presence, defaults, null).
protocol JSONFieldCodec {
    /// The Swift value of the field.
    associatedtype Value
    /// Reads the field `name` of `f`, marking it used; throws `FieldError`.
    func read(_ f: inout ObjectFields, _ name: StaticString) throws -> Value
    /// Writes `"name": value` into an open object, or nothing when the form omits it.
    func write(_ w: inout CanonicalWriter, _ name: StaticString, _ value: Value)
    /// The field as the documentation's table shows it.
    var summary: FieldSummary { get }
}

/// How one value is stored in the binary form.
protocol BinaryFieldCodec {
    /// The Swift value.
    associatedtype Value
    /// Writes the value.
    func encode(_ out: inout BinaryOut, _ value: Value)
    /// Reads the value; throws `ByteReader.Error`.
    func decode(_ b: inout BinaryIn) throws -> Value
    /// Reads the value over `value` (a codec whose stored form is often what `value`
    /// already holds can leave it, and spare a release).
    func decode(_ b: inout BinaryIn, into value: inout Value) throws
}

extension BinaryFieldCodec {
    @inline(__always)
    func decode(_ b: inout BinaryIn, into value: inout Value) throws { value = try decode(&b) }
}

/// A field of both forms.
protocol FieldCodec: JSONFieldCodec, BinaryFieldCodec {}

/// A field's row in the documentation: its JSON type and whether it must be present.
struct FieldSummary: Sendable, Equatable {
    /// The JSON type, e.g. `string (non-empty)`.
    var type: String
    /// `required`, `optional`, `optional, may be null`, or `optional, default …`.
    var presence: String
}

/// A shape of the event contract given by one description of its fields.
protocol DescribedShape: Shape {
    /// A value with every field at a placeholder, which the readers fill.
    static var blank: Self { get }
    /// Visits every field in contract order.
    mutating func describe<V: FieldVisitor>(_ v: inout V) throws
    /// Checks what no single field can (fields that depend on each other), after they are read.
    func validate(_ f: ObjectFields) throws(FieldError)
}

extension DescribedShape {
    func validate(_ f: ObjectFields) throws(FieldError) {}

    init(fields f: inout ObjectFields) throws(FieldError) {
        self = Self.blank
        do {
            try describe(&f)
        } catch {
            throw FieldError.thrown(error)
        }
        try validate(f)
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        var fields = self
        // The canonical writer never throws.
        try! fields.describe(&w)
    }

    func encode(_ out: inout BinaryOut) {
        var fields = self
        // The binary writer never throws.
        try! fields.describe(&out)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        self = Self.blank
        do {
            try describe(&b)
        } catch {
            throw ByteReader.Error.thrown(error)
        }
    }
}

extension FieldError {
    /// The error a JSON reader threw, which is always a `FieldError`.
    static func thrown(_ error: any Error) -> FieldError {
        error as? FieldError ?? FieldError(token: 0, message: "\(error)")
    }
}

extension ByteReader.Error {
    /// The error a binary reader threw, which is always a `ByteReader.Error`.
    static func thrown(_ error: any Error) -> ByteReader.Error {
        error as? ByteReader.Error ?? ByteReader.Error(offset: 0, expected: "\(error)")
    }
}

extension ObjectFields: FieldVisitor {
    @inline(__always)
    mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) throws {
        value = try codec.read(&self, name)
    }

    @inline(__always)
    mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) throws {
        value = try codec.read(&self, name)
    }

    @inline(__always)
    mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) {}
}

extension CanonicalWriter: FieldVisitor {
    @inline(__always)
    mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {
        codec.write(&self, name, value)
    }

    @inline(__always)
    mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {
        codec.write(&self, name, value)
    }

    @inline(__always)
    mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) {}
}

extension BinaryOut: FieldVisitor {
    @inline(__always)
    mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {
        codec.encode(&self, value)
    }

    @inline(__always)
    mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {}

    @inline(__always)
    mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) {
        codec.encode(&self, value)
    }
}

extension BinaryIn: FieldVisitor {
    @inline(__always)
    mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) throws {
        try codec.decode(&self, into: &value)
    }

    @inline(__always)
    mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {}

    @inline(__always)
    mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) throws {
        try codec.decode(&self, into: &value)
    }
}

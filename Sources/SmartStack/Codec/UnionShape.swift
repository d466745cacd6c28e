import RecordFormat

/// A shape that holds exactly one of several keys, each a case of a Swift enum: its one
/// description is the list of its variants, in the order of their tags in the stored form.
protocol UnionShape: Shape {
    /// The variants; a variant's index is its tag in the stored form.
    static var variants: [Variant<Self>] { get }
    /// How the JSON object holds its key.
    static var form: UnionForm { get }
}

/// How a union's JSON object holds its one key.
enum UnionForm: Sendable {
    /// The object has that key and no other: `what` names it in errors ("a context"),
    /// `unknown` is said of any other key.
    case onlyKey(what: String, unknown: String)
    /// The object (an event) has exactly one of the variants' keys among its others;
    /// `message` is said when it has none or several.
    case oneOfKeys(message: String)
}

/// One case of a union: its key and the codec of its value.
struct Variant<Union>: Sendable {
    /// The JSON key.
    let key: StaticString
    /// The value's JSON type, for the documentation.
    let type: String
    let read: @Sendable (ObjectFields, Int) throws(FieldError) -> Union
    /// Whether `Union` is this case.
    let matches: @Sendable (Union) -> Bool
    /// Writes the value when `Union` is this case, and says whether it was.
    let write: @Sendable (inout CanonicalWriter, Union) -> Bool
    /// Writes the value's stored form (`Union` is this case).
    let encode: @Sendable (inout BinaryOut, Union) -> Void
    let decode: @Sendable (inout BinaryIn) throws(ByteReader.Error) -> Union

    /// A case `key` whose value `codec` reads and writes; `embed` makes the case of a
    /// value, and `match` gives the value of the case (nil for another case).
    init<C: ValueCodec>(
        _ key: StaticString, _ codec: C, _ embed: @escaping @Sendable (C.Value) -> Union,
        _ match: @escaping @Sendable (Union) -> C.Value?
    ) {
        self.key = key
        self.type = codec.type
        read = { (f: ObjectFields, t: Int) throws(FieldError) -> Union in
            do { return embed(try codec.readValue(f, t)) } catch { throw FieldError.thrown(error) }
        }
        write = { w, u in
            guard let value = match(u) else { return false }
            w.key(key)
            codec.writeValue(&w, value)
            return true
        }
        matches = { match($0) != nil }
        encode = { out, u in if let value = match(u) { codec.encode(&out, value) } }
        decode = { (b: inout BinaryIn) throws(ByteReader.Error) -> Union in
            do { return embed(try codec.decode(&b)) } catch { throw ByteReader.Error.thrown(error) }
        }
    }
}

extension UnionShape {
    init(fields f: inout ObjectFields) throws(FieldError) {
        let variant: Variant<Self>
        switch Self.form {
        case .onlyKey(let what, let unknown):
            let key = try f.requireSingleKey(what)
            guard let v = Self.variants.first(where: { "\($0.key)" == key }) else { throw f.error(key, unknown) }
            variant = v
        case .oneOfKeys(let message):
            let present = Self.variants.filter { f.has($0.key) }
            guard present.count == 1 else {
                throw FieldError(token: f.index, message: "\(message) (found \(present.count))")
            }
            variant = present[0]
        }
        self = try variant.read(f, try f.require(variant.key))
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        for v in Self.variants where v.write(&w, self) { return }
    }

    func encode(_ out: inout BinaryOut) {
        for (tag, v) in Self.variants.enumerated() where v.matches(self) {
            out.byte(UInt8(tag))
            return v.encode(&out, self)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        let tag = Int(try b.byte())
        guard tag < Self.variants.count else {
            throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a tag below \(Self.variants.count)")
        }
        self = try Self.variants[tag].decode(&b)
    }
}

/// An object of exactly one key, `key`, holding a value of `codec`; stored as the value.
struct KeyedObject<C: ValueCodec>: ValueCodec {
    let key: StaticString
    let value: C
    /// What the object is called in errors.
    let what: String
    /// Said when the object's one key is another.
    let message: String

    func readValue(_ f: ObjectFields, _ token: Int) throws -> C.Value {
        var o = try f.object(token)
        guard try o.requireSingleKey(what) == "\(key)" else { throw o.error(key, message) }
        return try value.readValue(o, try o.require(key))
    }

    func writeValue(_ w: inout CanonicalWriter, _ v: C.Value) {
        w.beginObject()
        w.key(key)
        value.writeValue(&w, v)
        w.endObject()
    }

    func encode(_ out: inout BinaryOut, _ v: C.Value) { value.encode(&out, v) }
    func decode(_ b: inout BinaryIn) throws -> C.Value { try value.decode(&b) }

    var type: String { "`{\"\(key)\": …}` with " + value.type }
}

/// `true`, the only value allowed; the stored form holds nothing.
struct OnlyTrue: ValueCodec {
    func readValue(_ f: ObjectFields, _ token: Int) throws -> Bool {
        guard try f.boolValue(token) else { throw FieldError(token: token, message: "must be true") }
        return true
    }

    func writeValue(_ w: inout CanonicalWriter, _ value: Bool) { w.bool(true) }
    func encode(_ out: inout BinaryOut, _ value: Bool) {}
    func decode(_ b: inout BinaryIn) throws -> Bool { true }

    var type: String { "`true`" }
}

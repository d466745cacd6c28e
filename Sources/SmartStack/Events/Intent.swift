import RecordFormat

/// An intent and its parameters: `{"intent": "FestivalAppIntent", "parameters": {...}}`.
/// Parameter values are JSON scalars; equality is exact JSON equality.
public struct Intent: DescribedShape {
    /// The intent type name.
    public var name: String
    /// The parameters in the order given; nil when the key was absent.
    public var parameters: [JSONMember]?
    /// Unknown keys, kept as given.
    public var extras: [JSONMember] = []

    /// Creates an intent.
    public init(name: String, parameters: [JSONMember]? = nil) {
        self.name = name
        self.parameters = parameters
    }

    /// The value of a parameter, if present.
    public func parameter(_ key: String) -> JSONValue? { parameters?.first { $0.key == key }?.value }

    static var blank: Self { Self(name: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("intent", &name, Required(Text()))
        try v.field("parameters", &parameters, Parameters())
        try v.field("", &extras, Extras())
    }

    /// An object of scalars, at most `ContractLimits.intentParameters`; stored as the count
    /// plus one (0: absent), then each name and its value (a string, or other JSON).
    struct Parameters: FieldCodec {
        func read(_ f: inout ObjectFields, _ name: StaticString) throws -> [JSONMember]? {
            guard let t = f.take(name) else { return nil }
            let p = try f.object(t)
            guard p.count <= ContractLimits.intentParameters else {
                throw f.error(
                    name, "has \(p.count) parameters; the limit is \(ContractLimits.intentParameters)", at: t)
            }
            let members = try p.extras()
            for m in members where !m.value.isScalar {
                throw p.error(m.key, "an intent parameter must be a JSON scalar (string, number, true, false or null)")
            }
            return members
        }

        func write(_ w: inout CanonicalWriter, _ name: StaticString, _ value: [JSONMember]?) {
            guard let value else { return }
            w.key(name)
            w.beginObject()
            w.members(value)
            w.endObject()
        }

        func encode(_ out: inout BinaryOut, _ value: [JSONMember]?) {
            guard let value else { return out.count(0) }
            out.count(value.count + 1)
            for p in value {
                out.interned(p.key)
                if case .string(let s) = p.value {
                    out.byte(0)
                    out.text(s)
                } else {
                    out.byte(1)
                    out.value(p.value)
                }
            }
        }

        func decode(_ b: inout BinaryIn) throws -> [JSONMember]? {
            let n = try b.count()
            guard n > 0 else { return nil }
            var ps = [JSONMember]()
            for _ in 0..<n - 1 {
                let k = try b.interned()
                let v: JSONValue = try b.byte() == 0 ? .string(try b.text()) : try b.value()
                ps.append(JSONMember(k, v))
            }
            return ps
        }

        var summary: FieldSummary {
            FieldSummary(
                type: "object of JSON scalars, at most \(ContractLimits.intentParameters)", presence: "optional")
        }
    }
}

/// A timeline entry's relevance: `{"score": 52.6, "duration": 1800}`.
public struct Relevance: DescribedShape {
    /// The score, on the app's own scale.
    public var score: Double
    /// Seconds the score stays active (0: until the next entry with relevance).
    public var duration: Double = 0
    /// Unknown keys.
    public var extras: [JSONMember] = []

    /// Creates a relevance.
    public init(score: Double, duration: Double = 0) {
        self.score = score
        self.duration = duration
    }

    static var blank: Self { Self(score: 0) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("score", &score, Required(Number()))
        try v.field("duration", &duration, Defaulted(Seconds(), 0))
        try v.field("", &extras, Extras())
    }
}

/// A widget as placed in a stack.
public struct WidgetRef: DescribedShape {
    /// The instance id, unique per device.
    public var instance: String
    /// The app's bundle id.
    public var app: String
    /// The widget kind.
    public var kind: String
    /// The widget family, e.g. `systemSmall`.
    public var family: String
    /// The configuration intent, or nil for a static widget.
    public var configuration: Intent?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    /// Creates a widget reference.
    public init(instance: String, app: String, kind: String, family: String, configuration: Intent? = nil) {
        self.instance = instance
        self.app = app
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }

    static var blank: Self { Self(instance: "", app: "", kind: "", family: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("instance", &instance, Required(Text()))
        try v.field("app", &app, Required(Text()))
        try v.field("kind", &kind, Required(Text()))
        try v.field("family", &family, Required(Text()))
        try v.field("configuration", &configuration, Nullable(Nested<Intent>()))
        try v.field("", &extras, Extras())
    }
}

extension WidgetRef {
    /// The widget extension's bundle id (`extension`), when the event holds one.
    public var extensionBundle: String? {
        for member in extras where member.key == "extension" {
            if case .string(let s) = member.value { return s }
        }
        return nil
    }
}

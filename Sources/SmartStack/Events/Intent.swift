import RecordFormat

/// An intent and its parameters: `{"intent": "FestivalAppIntent", "parameters": {...}}`.
/// Parameter values are JSON scalars; equality is exact JSON equality.
public struct Intent: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        name = try f.string("intent")
        if let t = f.take("parameters") {
            let p = try f.object(t)
            guard p.count <= ContractLimits.intentParameters else {
                throw f.error(
                    "parameters", "has \(p.count) parameters; the limit is \(ContractLimits.intentParameters)", at: t)
            }
            let members = try p.extras()
            for m in members where !m.value.isScalar {
                throw p.error(m.key, "an intent parameter must be a JSON scalar (string, number, true, false or null)")
            }
            parameters = members
        }
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("intent")
        w.string(name)
        if let parameters {
            w.key("parameters")
            w.beginObject()
            w.members(parameters)
            w.endObject()
        }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(name)
        if let parameters {
            out.count(parameters.count + 1)
            for p in parameters {
                out.interned(p.key)
                if case .string(let s) = p.value {
                    out.byte(0)
                    out.text(s)
                } else {
                    out.byte(1)
                    out.value(p.value)
                }
            }
        } else {
            out.count(0)
        }
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        name = try b.interned()
        let n = try b.count()
        if n > 0 {
            var ps = [JSONMember]()
            for _ in 0..<n - 1 {
                let k = try b.interned()
                let v: JSONValue = try b.byte() == 0 ? .string(try b.text()) : try b.value()
                ps.append(JSONMember(k, v))
            }
            parameters = ps
        }
        extras = try b.extras()
    }
}

/// A timeline entry's relevance: `{"score": 52.6, "duration": 1800}`.
public struct Relevance: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        score = try f.number("score")
        duration = try f.optionalDuration("duration") ?? 0
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("score")
        w.number(score)
        if duration != 0 {
            w.key("duration")
            w.number(duration)
        }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.number(score)
        out.number(duration)
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        score = try b.number()
        duration = try b.number()
        extras = try b.extras()
    }
}

/// A widget as placed in a stack.
public struct WidgetRef: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        instance = try f.string("instance")
        app = try f.string("app")
        kind = try f.string("kind")
        family = try f.string("family")
        configuration = try f.nullableShape("configuration")
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("instance")
        w.string(instance)
        w.key("app")
        w.string(app)
        w.key("kind")
        w.string(kind)
        w.key("family")
        w.string(family)
        w.key("configuration")
        if let configuration { configuration.write(&w) } else { w.null() }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(instance)
        out.interned(app)
        out.interned(kind)
        out.interned(family)
        out.optional(configuration) { $0.shape($1) }
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        instance = try b.interned()
        app = try b.interned()
        kind = try b.interned()
        family = try b.interned()
        configuration = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(Intent.self) }
        extras = try b.extras()
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

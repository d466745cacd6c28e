public import RecordFormat

/// A timeline entry: `{"date": T, "relevance": relevance or null}`.
public struct TimelineEntry: Shape {
    /// When the entry is displayed.
    public var date: Timestamp
    /// Its relevance; nil keeps the previous relevance.
    public var relevance: Relevance?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    /// Creates an entry.
    public init(date: Timestamp, relevance: Relevance?) {
        self.date = date
        self.relevance = relevance
    }

    init(fields f: inout ObjectFields) throws(FieldError) {
        date = try f.time("date")
        relevance = try f.nullableShape("relevance")
        if let r = relevance, !EventLimits.endFits(date, plus: r.duration) {
            throw f.error(
                "relevance", "the entry's date plus its duration lies after 2200; the window must end within 1970-2200")
        }
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("date")
        w.time(date)
        w.key("relevance")
        if let relevance { relevance.write(&w) } else { w.null() }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.time(date)
        out.optional(relevance) { $0.shape($1) }
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        date = try b.time()
        relevance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(Relevance.self) }
        extras = try b.extras()
    }
}

/// A timeline's reload policy: the earliest time WidgetKit asks for the next timeline.
public enum ReloadPolicy: Hashable, Sendable {
    /// After the last entry's date passes (the default).
    case atEnd
    /// Only when the app asks.
    case never
    /// After a date.
    case after(Timestamp)
}

/// A relevant shortcut of `shortcuts.relevantSet`.
public struct RelevantShortcut: Shape {
    /// The widget kind it concerns.
    public var widgetKind: String
    /// `action` (default) or `information`.
    public var role: String = "action"
    /// The shortcut's intent, if any.
    public var intent: Intent?
    /// When or where it is relevant; empty defers to the usage model.
    public var relevanceProviders: [RelevanceProvider]
    /// Unknown keys.
    public var extras: [JSONMember] = []

    init(fields f: inout ObjectFields) throws(FieldError) {
        widgetKind = try f.string("widgetKind")
        role = try f.optionalEnumeration("role", ["action", "information"]) ?? "action"
        intent = try f.nullableShape("intent")
        relevanceProviders =
            try f.has("relevanceProviders")
            ? f.shapes("relevanceProviders", limit: ContractLimits.setMembers) : []
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("widgetKind")
        w.string(widgetKind)
        if role != "action" {
            w.key("role")
            w.string(role)
        }
        w.key("intent")
        if let intent { intent.write(&w) } else { w.null() }
        w.key("relevanceProviders")
        w.beginArray()
        for p in relevanceProviders { p.write(&w) }
        w.endArray()
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(widgetKind)
        out.interned(role)
        out.optional(intent) { $0.shape($1) }
        out.shapes(relevanceProviders)
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        widgetKind = try b.interned()
        role = try b.interned()
        intent = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(Intent.self) }
        relevanceProviders = try b.shapes()
        extras = try b.extras()
    }
}

/// A relevant intent of `intents.relevantSet`.
public struct RelevantIntentEntry: Shape {
    /// The widget kind.
    public var widgetKind: String
    /// The widget configuration intent.
    public var intent: Intent
    /// When it is relevant.
    public var context: RelevantContext
    /// Unknown keys.
    public var extras: [JSONMember] = []

    init(fields f: inout ObjectFields) throws(FieldError) {
        widgetKind = try f.string("widgetKind")
        intent = try f.shape("intent")
        context = try f.shape("context")
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("widgetKind")
        w.string(widgetKind)
        w.key("intent")
        intent.write(&w)
        w.key("context")
        context.write(&w)
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(widgetKind)
        out.shape(intent)
        out.shape(context)
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        widgetKind = try b.interned()
        intent = try b.shape()
        context = try b.shape()
        extras = try b.extras()
    }
}

/// One attribute of a `widget.relevance` answer.
public struct RelevanceAttribute: Shape {
    /// The configuration it concerns, if any.
    public var configuration: Intent?
    /// The context in which it is relevant, if any.
    public var context: RelevantContext?
    /// Its relevance group.
    public var group: RelevanceGroup?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    init(fields f: inout ObjectFields) throws(FieldError) {
        configuration = try f.nullableShape("configuration")
        context = try f.nullableShape("context")
        if let t = f.take("group") {
            switch f.r.token(t).kind {
            case .string:
                let s = try f.enumValue(t, ["automatic", "ungrouped"])
                group = s == "automatic" ? .automatic : .ungrouped
            case .object:
                var g = try f.object(t)
                guard try g.requireSingleKey("a named group") == "named" else {
                    throw g.error("named", "a group object is {\"named\": \"...\"}")
                }
                group = .named(try g.string("named"))
            default:
                throw f.error("group", "must be \"automatic\", \"ungrouped\" or {\"named\": \"...\"}", at: t)
            }
        }
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("configuration")
        if let configuration { configuration.write(&w) } else { w.null() }
        w.key("context")
        if let context { context.write(&w) } else { w.null() }
        switch group {
        case nil: break
        case .automatic:
            w.key("group")
            w.string("automatic")
        case .ungrouped:
            w.key("group")
            w.string("ungrouped")
        case .named(let n):
            w.key("group")
            w.beginObject()
            w.key("named")
            w.string(n)
            w.endObject()
        }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(configuration) { $0.shape($1) }
        out.optional(context) { $0.shape($1) }
        switch group {
        case nil: out.byte(0)
        case .automatic: out.byte(1)
        case .ungrouped: out.byte(2)
        case .named(let n):
            out.byte(3)
            out.interned(n)
        }
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        configuration = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(Intent.self) }
        context = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(RelevantContext.self) }
        switch try b.byte() {
        case 0: group = nil
        case 1: group = .automatic
        case 2: group = .ungrouped
        case 3: group = .named(try b.interned())
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a group tag")
        }
        extras = try b.extras()
    }
}

/// A relevance group: the system's, none, or a named one.
public enum RelevanceGroup: Hashable, Sendable {
    /// The system's default grouping.
    case automatic
    /// No group.
    case ungrouped
    /// A group named by the app.
    case named(String)
}

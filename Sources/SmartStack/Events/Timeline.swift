public import RecordFormat

/// A timeline entry: `{"date": T, "relevance": relevance or null}`.
public struct TimelineEntry: DescribedShape {
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

    static var blank: Self { Self(date: Timestamp(microseconds: 0), relevance: nil) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("date", &date, Required(Time()))
        try v.field("relevance", &relevance, Nullable(Nested<Relevance>()))
        try v.field("", &extras, Extras())
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        if let r = relevance, !EventLimits.endFits(date, plus: r.duration) {
            throw f.error(
                "relevance", "the entry's date plus its duration lies after 2200; the window must end within 1970-2200")
        }
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
public struct RelevantShortcut: DescribedShape {
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

    static var blank: Self { Self(widgetKind: "", intent: nil, relevanceProviders: []) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("widgetKind", &widgetKind, Required(Text()))
        try v.field("role", &role, Defaulted(Choice(["action", "information"]), "action"))
        try v.field("intent", &intent, Nullable(Nested<Intent>()))
        try v.field(
            "relevanceProviders", &relevanceProviders,
            Defaulted(List(Nested<RelevanceProvider>(), limit: ContractLimits.setMembers), [], written: true))
        try v.field("", &extras, Extras())
    }
}

/// A relevant intent of `intents.relevantSet`.
public struct RelevantIntentEntry: DescribedShape {
    /// The widget kind.
    public var widgetKind: String
    /// The widget configuration intent.
    public var intent: Intent
    /// When it is relevant.
    public var context: RelevantContext
    /// Unknown keys.
    public var extras: [JSONMember] = []

    static var blank: Self { Self(widgetKind: "", intent: .blank, context: .blank) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("widgetKind", &widgetKind, Required(Text()))
        try v.field("intent", &intent, Required(Nested<Intent>()))
        try v.field("context", &context, Required(Nested<RelevantContext>()))
        try v.field("", &extras, Extras())
    }
}

/// One attribute of a `widget.relevance` answer.
public struct RelevanceAttribute: DescribedShape {
    /// The configuration it concerns, if any.
    public var configuration: Intent?
    /// The context in which it is relevant, if any.
    public var context: RelevantContext?
    /// Its relevance group.
    public var group: RelevanceGroup?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    static var blank: Self { Self() }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("configuration", &configuration, Nullable(Nested<Intent>()))
        try v.field("context", &context, Nullable(Nested<RelevantContext>()))
        try v.field("group", &group, RelevanceGroup.Codec())
        try v.field("", &extras, Extras())
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

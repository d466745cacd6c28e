import RecordFormat

/// `widget.timeline`: a provider delivered a timeline.
public struct WidgetTimeline: DescribedShape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// nil: every instance of the kind.
    public var instance: String?
    /// The `entries` field of the event contract (docs/events.md).
    public var entries: [TimelineEntry]
    /// The `policy` field of the event contract (docs/events.md).
    public var policy: ReloadPolicy = .atEnd

    static var blank: Self { Self(kind: "", instance: nil, entries: []) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("kind", &kind, Required(Text()))
        try v.field("instance", &instance, Omittable(Text()))
        try v.field(
            "entries", &entries, Required(List(Nested<TimelineEntry>(), limit: ContractLimits.timelineEntries)))
        try v.field("policy", &policy, Defaulted(ReloadPolicy.Codec(), .atEnd))
    }
}

/// `widget.declared`: what the widget extension declares.
public struct WidgetDeclared: DescribedShape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// The `families` field of the event contract (docs/events.md).
    public var families: [String]
    /// `static`, `intent` or `relevance`.
    public var configuration: String
    /// The `associatedKind` field of the event contract (docs/events.md).
    public var associatedKind: String?

    static var blank: Self { Self(kind: "", families: [], configuration: "", associatedKind: nil) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("kind", &kind, Required(Text()))
        try v.field("families", &families, Required(List(Text(nonEmpty: false), limit: 64)))
        try v.field("configuration", &configuration, Required(Choice(["static", "intent", "relevance"])))
        try v.field("associatedKind", &associatedKind, Omittable(Text()))
    }
}

/// `widget.reloadRequested`: reloadTimelines(ofKind:) or reloadAllTimelines().
public struct ReloadRequested: DescribedShape {
    /// The kind, or nil with `all`.
    public var kind: String?
    /// The `all` field of the event contract (docs/events.md).
    public var all: Bool

    static var blank: Self { Self(kind: nil, all: false) }

    /// The stored form holds only the kind: none means all.
    private var storedKind: String? {
        get { kind }
        set {
            kind = newValue
            all = newValue == nil
        }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.jsonOnly("kind", &kind, Omittable(Text()))
        try v.jsonOnly("all", &all, Defaulted(Flag(), false))
        try v.binaryOnly(&storedKind, Omittable(Text()))
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        if kind == nil && !all { throw f.error("kind", "give kind, or \"all\": true") }
        if kind != nil && all { throw f.error("all", "give kind or \"all\": true, not both") }
    }
}

/// `widget.reloaded`: the system actually ran a reload.
public struct WidgetReloaded: DescribedShape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String?
    /// The `reason` field of the event contract (docs/events.md).
    public var reason: String?
    /// The `budgetRemaining` field of the event contract (docs/events.md).
    public var budgetRemaining: Double?

    /// Creates a reload.
    public init(kind: String, instance: String? = nil, reason: String? = nil, budgetRemaining: Double? = nil) {
        self.kind = kind
        self.instance = instance
        self.reason = reason
        self.budgetRemaining = budgetRemaining
    }

    static var blank: Self { Self(kind: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("kind", &kind, Required(Text()))
        try v.field("instance", &instance, Omittable(Text()))
        try v.field("reason", &reason, Omittable(Text(nonEmpty: false, storage: .verbatim)))
        try v.field("budgetRemaining", &budgetRemaining, Omittable(Number()))
    }
}

/// `intent.donated`: an intent donation.
public struct IntentDonated: DescribedShape {
    /// `appIntents` or `siriKit`.
    public var api: String
    /// The `intent` field of the event contract (docs/events.md).
    public var intent: Intent
    /// Parameter names compared when matching; nil means all of the intent's parameters.
    public var predictionParameters: [String]?
    /// The `donationId` field of the event contract (docs/events.md).
    public var donationId: String?
    /// The `groupIdentifier` field of the event contract (docs/events.md).
    public var groupIdentifier: String?

    /// Creates a donation.
    public init(
        api: String, intent: Intent, predictionParameters: [String]? = nil, donationId: String? = nil,
        groupIdentifier: String? = nil
    ) {
        self.api = api
        self.intent = intent
        self.predictionParameters = predictionParameters
        self.donationId = donationId
        self.groupIdentifier = groupIdentifier
    }

    static var blank: Self { Self(api: "", intent: .blank) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("api", &api, Required(Choice(["appIntents", "siriKit"])))
        try v.field("intent", &intent, Required(Nested<Intent>()))
        try v.field(
            "predictionParameters", &predictionParameters,
            Omittable(List(Text(nonEmpty: false), limit: ContractLimits.intentParameters)))
        try v.field("donationId", &donationId, Omittable(Text(storage: .verbatim)))
        try v.field("groupIdentifier", &groupIdentifier, Omittable(Text(storage: .verbatim)))
    }
}

/// `intent.donationsDeleted`: which donations were deleted (exactly one selector).
public enum DonationsDeleted: UnionShape {
    /// The donations with these ids.
    case donationIds([String])
    /// Every donation of this intent type.
    case intent(String)
    /// Every donation of this group.
    case groupIdentifier(String)
    /// Every donation of the app.
    case all

    static let form = UnionForm.oneOfKeys(
        message: "intent.donationsDeleted takes exactly one key of donationIds, intent, groupIdentifier, all")

    static let variants: [Variant<Self>] = [
        Variant("donationIds", List(Text(nonEmpty: false, storage: .verbatim), limit: 100_000), Self.donationIds) {
            if case .donationIds(let ids) = $0 { ids } else { nil }
        },
        Variant("intent", Text(), Self.intent) { if case .intent(let s) = $0 { s } else { nil } },
        Variant("groupIdentifier", Text(storage: .verbatim), Self.groupIdentifier) {
            if case .groupIdentifier(let s) = $0 { s } else { nil }
        },
        Variant("all", OnlyTrue(), { _ in .all }, { if case .all = $0 { true } else { nil } }),
    ]
}

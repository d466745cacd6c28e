import RecordFormat

/// `widget.timeline`: a provider delivered a timeline.
public struct WidgetTimeline: Shape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// nil: every instance of the kind.
    public var instance: String?
    /// The `entries` field of the event contract (docs/events.md).
    public var entries: [TimelineEntry]
    /// The `policy` field of the event contract (docs/events.md).
    public var policy: ReloadPolicy = .atEnd

    init(fields f: inout ObjectFields) throws(FieldError) {
        kind = try f.string("kind")
        instance = try f.optionalNonEmptyString("instance")
        entries = try f.shapes("entries", limit: ContractLimits.timelineEntries)
        if let t = f.take("policy") {
            switch f.r.token(t).kind {
            case .string:
                policy = try f.enumValue(t, ["atEnd", "never"]) == "never" ? .never : .atEnd
            case .object:
                var p = try f.object(t)
                guard try p.requireSingleKey("a reload policy") == "after" else {
                    throw p.error("after", "a policy object is {\"after\": T}")
                }
                policy = .after(try p.time("after"))
            default:
                throw f.error("policy", "must be \"atEnd\", \"never\" or {\"after\": T}", at: t)
            }
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("kind")
        w.string(kind)
        if let instance {
            w.key("instance")
            w.string(instance)
        }
        w.key("entries")
        w.beginArray()
        for e in entries { e.write(&w) }
        w.endArray()
        switch policy {
        case .atEnd: break
        case .never:
            w.key("policy")
            w.string("never")
        case .after(let t):
            w.key("policy")
            w.beginObject()
            w.key("after")
            w.time(t)
            w.endObject()
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(kind)
        out.optional(instance) { $0.interned($1) }
        out.shapes(entries)
        switch policy {
        case .atEnd: out.byte(0)
        case .never: out.byte(1)
        case .after(let t):
            out.byte(2)
            out.time(t)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        kind = try b.interned()
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        entries = try b.shapes()
        switch try b.byte() {
        case 0: policy = .atEnd
        case 1: policy = .never
        case 2: policy = .after(try b.time())
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a policy tag")
        }
    }
}

/// `widget.declared`: what the widget extension declares.
public struct WidgetDeclared: Shape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// The `families` field of the event contract (docs/events.md).
    public var families: [String]
    /// `static`, `intent` or `relevance`.
    public var configuration: String
    /// The `associatedKind` field of the event contract (docs/events.md).
    public var associatedKind: String?

    init(fields f: inout ObjectFields) throws(FieldError) {
        kind = try f.string("kind")
        let items = try f.array("families", limit: 64) ?? []
        var fams = [String]()
        for t in items { fams.append(try f.stringValue(t)) }
        families = fams
        configuration = try f.enumeration("configuration", ["static", "intent", "relevance"])
        associatedKind = try f.optionalNonEmptyString("associatedKind")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("kind")
        w.string(kind)
        w.key("families")
        w.beginArray()
        for s in families { w.string(s) }
        w.endArray()
        w.key("configuration")
        w.string(configuration)
        if let associatedKind {
            w.key("associatedKind")
            w.string(associatedKind)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(kind)
        out.count(families.count)
        for s in families { out.interned(s) }
        out.interned(configuration)
        out.optional(associatedKind) { $0.interned($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        kind = try b.interned()
        let n = try b.count()
        var fams = [String]()
        for _ in 0..<n { fams.append(try b.interned()) }
        families = fams
        configuration = try b.interned()
        associatedKind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
    }
}

/// `widget.reloadRequested`: reloadTimelines(ofKind:) or reloadAllTimelines().
public struct ReloadRequested: Shape {
    /// The kind, or nil with `all`.
    public var kind: String?
    /// The `all` field of the event contract (docs/events.md).
    public var all: Bool

    init(fields f: inout ObjectFields) throws(FieldError) {
        kind = try f.optionalNonEmptyString("kind")
        all = try f.optionalBool("all") ?? false
        if kind == nil && !all { throw f.error("kind", "give kind, or \"all\": true") }
        if kind != nil && all { throw f.error("all", "give kind or \"all\": true, not both") }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        if let kind {
            w.key("kind")
            w.string(kind)
        }
        if all {
            w.key("all")
            w.bool(true)
        }
    }

    func encode(_ out: inout BinaryOut) { out.optional(kind) { $0.interned($1) } }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        kind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        all = kind == nil
    }
}

/// `widget.reloaded`: the system actually ran a reload.
public struct WidgetReloaded: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        kind = try f.string("kind")
        instance = try f.optionalNonEmptyString("instance")
        reason = try f.optionalString("reason")
        budgetRemaining = try f.optionalNumber("budgetRemaining")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("kind")
        w.string(kind)
        if let instance {
            w.key("instance")
            w.string(instance)
        }
        if let reason {
            w.key("reason")
            w.string(reason)
        }
        if let budgetRemaining {
            w.key("budgetRemaining")
            w.number(budgetRemaining)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(kind)
        out.optional(instance) { $0.interned($1) }
        out.optional(reason) { $0.text($1) }
        out.optional(budgetRemaining) { $0.number($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        kind = try b.interned()
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        reason = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.text() }
        budgetRemaining = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.number() }
    }
}

/// `intent.donated`: an intent donation.
public struct IntentDonated: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        api = try f.enumeration("api", ["appIntents", "siriKit"])
        intent = try f.shape("intent")
        if let items = try f.array("predictionParameters", limit: ContractLimits.intentParameters, optional: true) {
            var names = [String]()
            for t in items { names.append(try f.stringValue(t)) }
            predictionParameters = names
        }
        donationId = try f.optionalNonEmptyString("donationId")
        groupIdentifier = try f.optionalNonEmptyString("groupIdentifier")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("api")
        w.string(api)
        w.key("intent")
        intent.write(&w)
        if let predictionParameters {
            w.key("predictionParameters")
            w.beginArray()
            for p in predictionParameters { w.string(p) }
            w.endArray()
        }
        if let donationId {
            w.key("donationId")
            w.string(donationId)
        }
        if let groupIdentifier {
            w.key("groupIdentifier")
            w.string(groupIdentifier)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(api)
        out.shape(intent)
        out.optional(predictionParameters) { o, ps in
            o.count(ps.count)
            for p in ps { o.interned(p) }
        }
        out.optional(donationId) { $0.text($1) }
        out.optional(groupIdentifier) { $0.text($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        api = try b.interned()
        intent = try b.shape()
        predictionParameters = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) -> [String] in
            let n = try b.count()
            var ps = [String]()
            for _ in 0..<n { ps.append(try b.interned()) }
            return ps
        }
        donationId = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.text() }
        groupIdentifier = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.text() }
    }
}

/// `intent.donationsDeleted`: which donations were deleted (exactly one selector).
public enum DonationsDeleted: Shape {
    /// The donations with these ids.
    case donationIds([String])
    /// Every donation of this intent type.
    case intent(String)
    /// Every donation of this group.
    case groupIdentifier(String)
    /// Every donation of the app.
    case all

    init(fields f: inout ObjectFields) throws(FieldError) {
        let present = [f.has("donationIds"), f.has("intent"), f.has("groupIdentifier"), f.has("all")]
        let found = present.filter { $0 }.count
        guard found == 1, let selector = present.firstIndex(of: true) else {
            throw FieldError(
                token: f.index,
                message:
                    "intent.donationsDeleted takes exactly one key of donationIds, intent, groupIdentifier, all (found \(found))"
            )
        }
        switch selector {
        case 0:
            let items = try f.array("donationIds", limit: 100_000) ?? []
            var ids = [String]()
            for t in items { ids.append(try f.stringValue(t)) }
            self = .donationIds(ids)
        case 1: self = .intent(try f.string("intent"))
        case 2: self = .groupIdentifier(try f.string("groupIdentifier"))
        default:
            guard try f.bool("all") else { throw f.error("all", "must be true") }
            self = .all
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        switch self {
        case .donationIds(let ids):
            w.key("donationIds")
            w.beginArray()
            for id in ids { w.string(id) }
            w.endArray()
        case .intent(let s):
            w.key("intent")
            w.string(s)
        case .groupIdentifier(let s):
            w.key("groupIdentifier")
            w.string(s)
        case .all:
            w.key("all")
            w.bool(true)
        }
    }

    func encode(_ out: inout BinaryOut) {
        switch self {
        case .donationIds(let ids):
            out.byte(0)
            out.count(ids.count)
            for id in ids { out.text(id) }
        case .intent(let s):
            out.byte(1)
            out.interned(s)
        case .groupIdentifier(let s):
            out.byte(2)
            out.text(s)
        case .all: out.byte(3)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        switch try b.byte() {
        case 0:
            let n = try b.count()
            var ids = [String]()
            for _ in 0..<n { ids.append(try b.text()) }
            self = .donationIds(ids)
        case 1: self = .intent(try b.interned())
        case 2: self = .groupIdentifier(try b.text())
        case 3: self = .all
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a selector tag")
        }
    }
}

import RecordFormat

/// A relevant shortcut as the engine keeps it.
struct StoredShortcut: Hashable {
    var kind: String
    var role: String
    var intent: String?
    var parameters: [String: String]?
    var providers: [Clue]
    var providerTypes: [String]
}

/// An app's latest `shortcuts.relevantSet` (S2: it replaces the whole set).
struct ShortcutSet: Hashable {
    var seq: UInt64
    var time: Int64
    var shortcuts: [StoredShortcut]
}

/// Why a kind's shortcut stopped counting (S3): the set that omitted it and the one that
/// had it.
struct Invalidation: Hashable {
    var bySeq: UInt64
    var time: Int64
    var previousSeq: UInt64
}

/// A relevant intent or a relevance attribute.
struct ContextSignal: Hashable {
    var kind: String
    var intent: String?
    var parameters: [String: String]?
    /// nil: no context (an attribute with only a group); it never matches by itself.
    var clue: Clue?
    /// The group key (W4), nil when ungrouped.
    var group: String?
}

/// An app's latest `intents.relevantSet` (W1), or a kind's latest `widget.relevance`.
struct ContextSet: Hashable {
    var seq: UInt64
    var signals: [ContextSignal]
}

/// What `widget.declared` said.
struct Declaration: Hashable {
    var families: [String]
    var configuration: String
    var associatedKind: String?
    var seq: UInt64
}

/// A donation or an app use, for the usage model.
struct UsageRecord: Hashable {
    var time: Int64
    var hour: Int
    var seq: UInt64
    /// The app, intent and predicted parameters, shared with the other records that have
    /// the same.
    var signature: UsageSignature
    /// The donation's identifier and group identifier, when it has either.
    private var tags: UsageTags?
    /// The `intent.donationsDeleted` event that deleted it (D4).
    var deletedBy: UInt64?

    /// The donation's identifier (`intent.donated`'s `donationId`).
    var donationId: String? { tags?.donationId }
    /// The donation's group identifier (`intent.donated`'s `groupIdentifier`).
    var groupIdentifier: String? { tags?.groupIdentifier }
    var app: String { signature.app }
    /// nil for an app use (`app.foreground`).
    var intent: String? { signature.intent }
    /// The predicted parameters: name to canonical JSON value.
    var parameters: [String: String] { signature.parameters }
    /// The intent and its predicted parameters as one key (what a pattern groups by).
    var patternKey: String? { signature.patternKey }
    /// `StringHash.of(patternKey)` (0 without one).
    var patternHash: UInt64 { signature.patternHash }
    /// `StringHash.of(intent)` (0 for an app use): records of other intents are passed over without
    /// comparing strings.
    var intentHash: UInt64 { signature.intentHash }

    init(
        time: Int64, hour: Int, seq: UInt64, app: String, intent: String?, parameters: [String: String],
        donationId: String? = nil, groupIdentifier: String? = nil
    ) {
        self.init(
            time: time, hour: hour, seq: seq,
            signature: UsageSignature(app: app, intent: intent, parameters: parameters), donationId: donationId,
            groupIdentifier: groupIdentifier, deletedBy: nil)
    }

    /// A record of an existing signature (a checkpoint's).
    init(
        time: Int64, hour: Int, seq: UInt64, signature: UsageSignature, donationId: String?,
        groupIdentifier: String?, deletedBy: UInt64?
    ) {
        self.time = time
        self.hour = hour
        self.seq = seq
        self.signature = signature
        self.tags = UsageTags.of(donationId: donationId, groupIdentifier: groupIdentifier)
        self.deletedBy = deletedBy
    }

    /// `intent␟name=value&name=value`, the names sorted, written into one string.
    /// Its bytes are counted first, so that the key is written into storage made once.
    static func patternKey(intent: String, parameters: [String: String]) -> String {
        let names = parameters.keys.sorted()
        var count = intent.utf8.count + 1
        for (name, value) in parameters { count += name.utf8.count + value.utf8.count + 2 }
        var key = ""
        key.reserveCapacity(count)
        key.append(intent)
        key.append("\u{1F}")
        for (n, name) in names.enumerated() {
            if n > 0 { key.append("&") }
            key.append(name)
            key.append("=")
            key.append(parameters[name]!)
        }
        return key
    }
}

/// A donation's identifier and group identifier, held apart from its usage record: most
/// records have neither, and a record without them copies and frees one reference (its
/// signature's) where two strings would add two more.
final class UsageTags: Hashable, Sendable {
    let donationId: String?
    let groupIdentifier: String?

    private init(donationId: String?, groupIdentifier: String?) {
        self.donationId = donationId
        self.groupIdentifier = groupIdentifier
    }

    /// The tags of a record; nil, with nothing allocated, when it has neither.
    static func of(donationId: String?, groupIdentifier: String?) -> UsageTags? {
        guard donationId != nil || groupIdentifier != nil else { return nil }
        return UsageTags(donationId: donationId, groupIdentifier: groupIdentifier)
    }

    static func == (a: UsageTags, b: UsageTags) -> Bool {
        a === b || (a.donationId == b.donationId && a.groupIdentifier == b.groupIdentifier)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(donationId)
        hasher.combine(groupIdentifier)
    }
}

/// A usage record's app, intent and predicted parameters, with what is made from them
/// (the pattern key and the hashes), made once and shared by the records that have the
/// same: a state holds thousands of records and few of these.
final class UsageSignature: Hashable, Sendable {
    let app: String
    let intent: String?
    let parameters: [String: String]
    let patternKey: String?
    let patternHash: UInt64
    let intentHash: UInt64

    init(app: String, intent: String?, parameters: [String: String]) {
        self.app = app
        self.intent = intent
        self.parameters = parameters
        let key = intent.map { UsageRecord.patternKey(intent: $0, parameters: parameters) }
        self.patternKey = key
        self.patternHash = key.map(StringHash.of) ?? 0
        self.intentHash = intent.map(StringHash.of) ?? 0
    }

    static func == (a: UsageSignature, b: UsageSignature) -> Bool {
        a === b || (a.app == b.app && a.intent == b.intent && a.parameters == b.parameters)
    }

    /// The app and the hashes made at init: equal signatures have the same pattern key
    /// (the intent and its parameters) and intent, and hashing a dictionary costs a hasher
    /// for each of its entries.
    func hash(into hasher: inout Hasher) {
        hasher.combine(app)
        hasher.combine(patternHash)
        hasher.combine(intentHash)
    }
}

/// A context state that is active, since when, and the event that said so.
struct ActiveState: Hashable {
    var since: Int64
    var seq: UInt64
}

/// An authorisation and the event that set it.
struct PermissionState: Hashable {
    var granted: Bool
    var seq: UInt64
}

/// Where a donated intent type's widget lives: the app and kind last seen configured
/// with it.
struct IntentHome: Hashable {
    var app: String
    var kind: String
}

/// Converts intent parameters to the engine's map of canonical values.
func parameterMap(_ members: [JSONMember]?) -> [String: String] {
    var out = [String: String]()
    for m in members ?? [] { out[m.key] = CanonicalWriter.text(of: m.value) }
    return out
}

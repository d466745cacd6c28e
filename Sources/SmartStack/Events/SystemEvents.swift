import RecordFormat

/// `context.changed`: the person's context started or stopped matching.
public struct ContextChanged: DescribedShape {
    /// The `context` field of the event contract (docs/events.md).
    public var context: RelevantContext
    /// The `active` field of the event contract (docs/events.md).
    public var active: Bool

    /// Creates a change of context.
    public init(context: RelevantContext, active: Bool) {
        self.context = context
        self.active = active
    }

    static var blank: Self { Self(context: .blank, active: false) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("context", &context, Required(Nested<RelevantContext>()))
        try v.field("active", &active, Required(Flag()))
    }
}

/// `permission.changed`: an authorisation that gates clues.
public struct PermissionChanged: DescribedShape {
    /// `locationForWidgets`, `sleep`, `workout` or `activityRings`.
    public var permission: String
    /// The `granted` field of the event contract (docs/events.md).
    public var granted: Bool

    static var blank: Self { Self(permission: "", granted: false) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field(
            "permission", &permission, Required(Choice(["locationForWidgets", "sleep", "workout", "activityRings"])))
        try v.field("granted", &granted, Required(Flag()))
    }
}

/// `device.info`: the OS version and the device's time zone.
public struct DeviceInfo: DescribedShape {
    /// The `platform` field of the event contract (docs/events.md).
    public var platform: String
    /// The `osVersion` field of the event contract (docs/events.md).
    public var osVersion: String
    /// An IANA time zone name.
    public var timeZone: String?

    static var blank: Self { Self(platform: "", osVersion: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("platform", &platform, Required(Choice(StackCreated.platforms)))
        try v.field("osVersion", &osVersion, Required(Text()))
        try v.field("timeZone", &timeZone, Omittable(Text()))
    }
}

/// `app.foreground`: the person used the app.
public struct AppForeground: DescribedShape {
    /// The `duration` field of the event contract (docs/events.md).
    public var duration: Double?

    /// Creates a foreground period.
    public init(duration: Double? = nil) { self.duration = duration }

    static var blank: Self { Self() }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("duration", &duration, Omittable(Seconds()))
    }
}

/// `system.developerMode`: WidgetKit Developer Mode on or off.
public struct DeveloperMode: DescribedShape {
    /// The `enabled` field of the event contract (docs/events.md).
    public var enabled: Bool

    static var blank: Self { Self(enabled: false) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("enabled", &enabled, Required(Flag()))
    }
}

/// `shortcuts.relevantSet`: replaces the app's whole set of relevant shortcuts.
public struct RelevantShortcutsSet: DescribedShape {
    /// The `shortcuts` field of the event contract (docs/events.md).
    public var shortcuts: [RelevantShortcut]

    static var blank: Self { Self(shortcuts: []) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field(
            "shortcuts", &shortcuts, Required(List(Nested<RelevantShortcut>(), limit: ContractLimits.setMembers)))
    }
}

/// `intents.relevantSet`: replaces the app's whole set of relevant intents.
public struct RelevantIntentsSet: DescribedShape {
    /// The `intents` field of the event contract (docs/events.md).
    public var intents: [RelevantIntentEntry]

    static var blank: Self { Self(intents: []) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field(
            "intents", &intents, Required(List(Nested<RelevantIntentEntry>(), limit: ContractLimits.setMembers)))
    }
}

/// `widget.relevance`: a watchOS timeline provider's relevance() answer.
public struct WidgetRelevanceSet: DescribedShape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// In priority order.
    public var attributes: [RelevanceAttribute]

    static var blank: Self { Self(kind: "", attributes: []) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("kind", &kind, Required(Text()))
        try v.field(
            "attributes", &attributes, Required(List(Nested<RelevanceAttribute>(), limit: ContractLimits.setMembers)))
    }
}

import RecordFormat

/// `context.changed`: the person's context started or stopped matching.
public struct ContextChanged: Shape {
    /// The `context` field of the event contract (docs/events.md).
    public var context: RelevantContext
    /// The `active` field of the event contract (docs/events.md).
    public var active: Bool

    /// Creates a change of context.
    public init(context: RelevantContext, active: Bool) {
        self.context = context
        self.active = active
    }

    init(fields f: inout ObjectFields) throws(FieldError) {
        context = try f.shape("context")
        active = try f.bool("active")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("context")
        context.write(&w)
        w.key("active")
        w.bool(active)
    }

    func encode(_ out: inout BinaryOut) {
        out.shape(context)
        out.bool(active)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        context = try b.shape()
        active = try b.bool()
    }
}

/// `permission.changed`: an authorisation that gates clues.
public struct PermissionChanged: Shape {
    /// `locationForWidgets`, `sleep`, `workout` or `activityRings`.
    public var permission: String
    /// The `granted` field of the event contract (docs/events.md).
    public var granted: Bool

    init(fields f: inout ObjectFields) throws(FieldError) {
        permission = try f.enumeration("permission", ["locationForWidgets", "sleep", "workout", "activityRings"])
        granted = try f.bool("granted")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("permission")
        w.string(permission)
        w.key("granted")
        w.bool(granted)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(permission)
        out.bool(granted)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        permission = try b.interned()
        granted = try b.bool()
    }
}

/// `device.info`: the OS version and the device's time zone.
public struct DeviceInfo: Shape {
    /// The `platform` field of the event contract (docs/events.md).
    public var platform: String
    /// The `osVersion` field of the event contract (docs/events.md).
    public var osVersion: String
    /// An IANA time zone name.
    public var timeZone: String?

    init(fields f: inout ObjectFields) throws(FieldError) {
        platform = try f.enumeration("platform", StackCreated.platforms)
        osVersion = try f.string("osVersion")
        timeZone = try f.optionalNonEmptyString("timeZone")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("platform")
        w.string(platform)
        w.key("osVersion")
        w.string(osVersion)
        if let timeZone {
            w.key("timeZone")
            w.string(timeZone)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(platform)
        out.interned(osVersion)
        out.optional(timeZone) { $0.interned($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        platform = try b.interned()
        osVersion = try b.interned()
        timeZone = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
    }
}

/// `app.foreground`: the person used the app.
public struct AppForeground: Shape {
    /// The `duration` field of the event contract (docs/events.md).
    public var duration: Double?

    /// Creates a foreground period.
    public init(duration: Double? = nil) { self.duration = duration }

    init(fields f: inout ObjectFields) throws(FieldError) {
        duration = try f.optionalDuration("duration")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        if let duration {
            w.key("duration")
            w.number(duration)
        }
    }

    func encode(_ out: inout BinaryOut) { out.optional(duration) { $0.number($1) } }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        duration = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.number() }
    }
}

/// `system.developerMode`: WidgetKit Developer Mode on or off.
public struct DeveloperMode: Shape {
    /// The `enabled` field of the event contract (docs/events.md).
    public var enabled: Bool

    init(fields f: inout ObjectFields) throws(FieldError) { enabled = try f.bool("enabled") }
    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("enabled")
        w.bool(enabled)
    }
    func encode(_ out: inout BinaryOut) { out.bool(enabled) }
    init(binary b: inout BinaryIn) throws(ByteReader.Error) { enabled = try b.bool() }
}

/// `shortcuts.relevantSet`: replaces the app's whole set of relevant shortcuts.
public struct RelevantShortcutsSet: Shape {
    /// The `shortcuts` field of the event contract (docs/events.md).
    public var shortcuts: [RelevantShortcut]

    init(fields f: inout ObjectFields) throws(FieldError) {
        shortcuts = try f.shapes("shortcuts", limit: ContractLimits.setMembers)
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("shortcuts")
        w.beginArray()
        for s in shortcuts { s.write(&w) }
        w.endArray()
    }

    func encode(_ out: inout BinaryOut) { out.shapes(shortcuts) }
    init(binary b: inout BinaryIn) throws(ByteReader.Error) { shortcuts = try b.shapes() }
}

/// `intents.relevantSet`: replaces the app's whole set of relevant intents.
public struct RelevantIntentsSet: Shape {
    /// The `intents` field of the event contract (docs/events.md).
    public var intents: [RelevantIntentEntry]

    init(fields f: inout ObjectFields) throws(FieldError) {
        intents = try f.shapes("intents", limit: ContractLimits.setMembers)
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("intents")
        w.beginArray()
        for s in intents { s.write(&w) }
        w.endArray()
    }

    func encode(_ out: inout BinaryOut) { out.shapes(intents) }
    init(binary b: inout BinaryIn) throws(ByteReader.Error) { intents = try b.shapes() }
}

/// `widget.relevance`: a watchOS timeline provider's relevance() answer.
public struct WidgetRelevanceSet: Shape {
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String
    /// In priority order.
    public var attributes: [RelevanceAttribute]

    init(fields f: inout ObjectFields) throws(FieldError) {
        kind = try f.string("kind")
        attributes = try f.shapes("attributes", limit: ContractLimits.setMembers)
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("kind")
        w.string(kind)
        w.key("attributes")
        w.beginArray()
        for a in attributes { a.write(&w) }
        w.endArray()
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(kind)
        out.shapes(attributes)
    }
    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        kind = try b.interned()
        attributes = try b.shapes()
    }
}

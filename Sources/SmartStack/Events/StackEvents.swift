import RecordFormat

/// `stack.created`: a Smart Stack exists.
public struct StackCreated: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// `iOS`, `iPadOS` or `watchOS`.
    public var platform: String
    /// The `family` field of the event contract (docs/events.md).
    public var family: String
    /// The `smartRotate` field of the event contract (docs/events.md).
    public var smartRotate = true
    /// The `widgetSuggestions` field of the event contract (docs/events.md).
    public var widgetSuggestions = true

    static let platforms = ["iOS", "iPadOS", "watchOS"]

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        platform = try f.enumeration("platform", Self.platforms)
        family = try f.string("family")
        smartRotate = try f.optionalBool("smartRotate") ?? true
        widgetSuggestions = try f.optionalBool("widgetSuggestions") ?? true
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("platform")
        w.string(platform)
        w.key("family")
        w.string(family)
        if !smartRotate {
            w.key("smartRotate")
            w.bool(false)
        }
        if !widgetSuggestions {
            w.key("widgetSuggestions")
            w.bool(false)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.interned(platform)
        out.interned(family)
        out.byte((smartRotate ? 1 : 0) | (widgetSuggestions ? 2 : 0))
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        platform = try b.interned()
        family = try b.interned()
        let flags = try b.byte()
        smartRotate = flags & 1 != 0
        widgetSuggestions = flags & 2 != 0
    }
}

/// `stack.settingsChanged`: toggles changed.
public struct StackSettingsChanged: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `smartRotate` field of the event contract (docs/events.md).
    public var smartRotate: Bool?
    /// The `widgetSuggestions` field of the event contract (docs/events.md).
    public var widgetSuggestions: Bool?

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        smartRotate = try f.optionalBool("smartRotate")
        widgetSuggestions = try f.optionalBool("widgetSuggestions")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        if let smartRotate {
            w.key("smartRotate")
            w.bool(smartRotate)
        }
        if let widgetSuggestions {
            w.key("widgetSuggestions")
            w.bool(widgetSuggestions)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.byte(UInt8(smartRotate.map { $0 ? 2 : 1 } ?? 0) | UInt8(widgetSuggestions.map { $0 ? 8 : 4 } ?? 0))
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        let f = try b.byte()
        smartRotate = f & 3 == 0 ? nil : f & 2 != 0
        widgetSuggestions = f & 12 == 0 ? nil : f & 8 != 0
    }
}

/// `stack.widgetAdded`: the person added a widget.
public struct WidgetAdded: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `widget` field of the event contract (docs/events.md).
    public var widget: WidgetRef
    /// 0 = top; nil = after the last.
    public var position: Int?

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        widget = try f.shape("widget")
        position = try f.optionalPosition("position")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("widget")
        widget.write(&w)
        if let position {
            w.key("position")
            w.integer(position)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.shape(widget)
        out.count(position.map { $0 + 1 } ?? 0)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        widget = try b.shape()
        let p = try b.count()
        position = p == 0 ? nil : p - 1
    }
}

/// A stack and one of its widget instances: `stack.widgetRemoved`, `stack.widgetPinned`,
/// `stack.widgetUnpinned`, `stack.scrolled`.
public struct StackInstance: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        instance = try f.string("instance")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("instance")
        w.string(instance)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.interned(instance)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        instance = try b.interned()
    }
}

/// `stack.widgetMoved`: the person reordered.
public struct WidgetMoved: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String
    /// The `position` field of the event contract (docs/events.md).
    public var position: Int

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        instance = try f.string("instance")
        guard let p = try f.optionalPosition("position") else { throw f.error("position", "is required but missing") }
        position = p
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("instance")
        w.string(instance)
        w.key("position")
        w.integer(position)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.interned(instance)
        out.count(position)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        instance = try b.interned()
        position = try b.count()
    }
}

/// `suggestion.kept`: the person kept a suggested widget.
public struct SuggestionAnswer: Shape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        instance = try f.string("instance")
        kind = try f.string("kind")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("instance")
        w.string(instance)
        w.key("kind")
        w.string(kind)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.interned(instance)
        out.interned(kind)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        instance = try b.interned()
        kind = try b.interned()
    }
}

/// `widget.viewed` / `widget.tapped`: engagement with a widget, named by instance or by
/// (app, kind).
public struct Engagement: Shape {
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String?
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String?
    /// The `duration` field of the event contract (docs/events.md).
    public var duration: Double?
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String?
    /// The `inStack` field of the event contract (docs/events.md).
    public var inStack: Bool?

    /// Creates an engagement.
    public init(
        instance: String? = nil, kind: String? = nil, duration: Double? = nil, stack: String? = nil,
        inStack: Bool? = nil
    ) {
        self.instance = instance
        self.kind = kind
        self.duration = duration
        self.stack = stack
        self.inStack = inStack
    }

    init(fields f: inout ObjectFields) throws(FieldError) {
        instance = try f.optionalNonEmptyString("instance")
        kind = try f.optionalNonEmptyString("kind")
        duration = try f.optionalDuration("duration")
        stack = try f.optionalNonEmptyString("stack")
        inStack = try f.optionalBool("inStack")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        if let instance {
            w.key("instance")
            w.string(instance)
        }
        if let kind {
            w.key("kind")
            w.string(kind)
        }
        if let duration {
            w.key("duration")
            w.number(duration)
        }
        if let stack {
            w.key("stack")
            w.string(stack)
        }
        if let inStack {
            w.key("inStack")
            w.bool(inStack)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(instance) { $0.interned($1) }
        out.optional(kind) { $0.interned($1) }
        out.optional(duration) { $0.number($1) }
        out.optional(stack) { $0.interned($1) }
        out.optional(inStack) { $0.bool($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        kind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        duration = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.number() }
        stack = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        inStack = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.bool() }
    }
}

/// `stack.observed`: what the device itself recorded on screen (ground truth).
public struct StackObserved: Shape {
    /// What a record can tell (docs/events.md, "Device records and what they can tell").
    public enum Scope: String, Sendable, CaseIterable {
        /// The widget was the one shown: on top of its stack, or alone.
        case top
        /// Only that the stack holding the widget was on screen.
        case stack
    }

    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String?
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String?
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String?
    /// The `onScreen` field of the event contract (docs/events.md).
    public var onScreen: Bool
    /// The `duration` field of the event contract (docs/events.md).
    public var duration: Double?
    /// The `scope` field of the event contract (docs/events.md), when written (`top` when not).
    public var scope: Scope?

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.optionalNonEmptyString("stack")
        instance = try f.optionalNonEmptyString("instance")
        kind = try f.optionalNonEmptyString("kind")
        onScreen = try f.bool("onScreen")
        duration = try f.optionalDuration("duration")
        scope = try f.optionalEnumeration("scope", Scope.allCases.map(\.rawValue)).flatMap(Scope.init(rawValue:))
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        if let stack {
            w.key("stack")
            w.string(stack)
        }
        if let instance {
            w.key("instance")
            w.string(instance)
        }
        if let kind {
            w.key("kind")
            w.string(kind)
        }
        w.key("onScreen")
        w.bool(onScreen)
        if let duration {
            w.key("duration")
            w.number(duration)
        }
        if let scope {
            w.key("scope")
            w.string(scope.rawValue)
        }
    }

    /// `onScreen` and `scope` share one byte: bit 0 `onScreen`, bit 1 a written scope, bit 2
    /// scope `stack`. Records stored before `scope` existed hold 0 or 1 there.
    var flags: UInt8 {
        (onScreen ? 1 : 0) | (scope == nil ? 0 : 2) | (scope == .stack ? 4 : 0)
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(stack) { $0.interned($1) }
        out.optional(instance) { $0.interned($1) }
        out.optional(kind) { $0.interned($1) }
        out.byte(flags)
        out.optional(duration) { $0.number($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        kind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        let flags = try b.byte()
        onScreen = flags & 1 != 0
        scope = flags & 2 == 0 ? nil : flags & 4 != 0 ? .stack : .top
        duration = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.number() }
    }
}

/// `suggestion.dismissed`: the person removed a suggested widget. The device's own records
/// (DuetExpertCenter `widgetSuggestionDismiss`) lack the stack and the instance; they then
/// name the widget's app or extension (`extension`, kept among the event's unknown fields)
/// and kind.
public struct SuggestionDismissal: Shape {
    /// The `stack` field of the event contract (docs/events.md), when recorded.
    public var stack: String?
    /// The `instance` field of the event contract (docs/events.md), when recorded.
    public var instance: String?
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.optionalNonEmptyString("stack")
        instance = try f.optionalNonEmptyString("instance")
        kind = try f.string("kind")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.optionalString("stack", stack)
        w.optionalString("instance", instance)
        w.key("kind")
        w.string(kind)
    }

    // The stored form is `suggestion.kept`'s, with an empty string for a field not recorded,
    // so that stores written before the fields became optional read unchanged.
    func encode(_ out: inout BinaryOut) {
        out.interned(stack ?? "")
        out.interned(instance ?? "")
        out.interned(kind)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        let stack = try b.interned()
        let instance = try b.interned()
        self.stack = stack.isEmpty ? nil : stack
        self.instance = instance.isEmpty ? nil : instance
        kind = try b.interned()
    }
}

import RecordFormat

/// `stack.created`: a Smart Stack exists.
public struct StackCreated: DescribedShape {
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

    static var blank: Self { Self(stack: "", platform: "", family: "") }

    /// The stored form packs both switches into one byte: bit 0 Smart Rotate, bit 1 Widget
    /// Suggestions.
    private var flags: UInt8 {
        get { (smartRotate ? 1 : 0) | (widgetSuggestions ? 2 : 0) }
        set {
            smartRotate = newValue & 1 != 0
            widgetSuggestions = newValue & 2 != 0
        }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("platform", &platform, Required(Choice(Self.platforms)))
        try v.field("family", &family, Required(Text()))
        try v.jsonOnly("smartRotate", &smartRotate, Defaulted(Flag(), true))
        try v.jsonOnly("widgetSuggestions", &widgetSuggestions, Defaulted(Flag(), true))
        try v.binaryOnly(&flags, Byte())
    }
}

/// `stack.settingsChanged`: toggles changed.
public struct StackSettingsChanged: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `smartRotate` field of the event contract (docs/events.md).
    public var smartRotate: Bool?
    /// The `widgetSuggestions` field of the event contract (docs/events.md).
    public var widgetSuggestions: Bool?

    static var blank: Self { Self(stack: "") }

    /// The stored form packs both switches into one byte: bits 0-1 Smart Rotate, bits 2-3
    /// Widget Suggestions (0 absent, 1 off, 2 on).
    private var flags: UInt8 {
        get { UInt8(smartRotate.map { $0 ? 2 : 1 } ?? 0) | UInt8(widgetSuggestions.map { $0 ? 8 : 4 } ?? 0) }
        set {
            smartRotate = newValue & 3 == 0 ? nil : newValue & 2 != 0
            widgetSuggestions = newValue & 12 == 0 ? nil : newValue & 8 != 0
        }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.jsonOnly("smartRotate", &smartRotate, Omittable(Flag()))
        try v.jsonOnly("widgetSuggestions", &widgetSuggestions, Omittable(Flag()))
        try v.binaryOnly(&flags, Byte())
    }
}

/// `stack.widgetAdded`: the person added a widget.
public struct WidgetAdded: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `widget` field of the event contract (docs/events.md).
    public var widget: WidgetRef
    /// 0 = top; nil = after the last.
    public var position: Int?

    static var blank: Self { Self(stack: "", widget: .blank) }

    /// The stored form is the position plus one, 0 for none.
    private var storedPosition: Int {
        get { position.map { $0 + 1 } ?? 0 }
        set { position = newValue == 0 ? nil : newValue - 1 }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("widget", &widget, Required(Nested<WidgetRef>()))
        try v.jsonOnly("position", &position, Omittable(Position()))
        try v.binaryOnly(&storedPosition, Count())
    }
}

/// A stack and one of its widget instances: `stack.widgetRemoved`, `stack.widgetPinned`,
/// `stack.widgetUnpinned`, `stack.scrolled`.
public struct StackInstance: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String

    static var blank: Self { Self(stack: "", instance: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("instance", &instance, Required(Text()))
    }
}

/// `stack.widgetMoved`: the person reordered.
public struct WidgetMoved: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String
    /// The `position` field of the event contract (docs/events.md).
    public var position: Int

    static var blank: Self { Self(stack: "", instance: "", position: 0) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("instance", &instance, Required(Text()))
        try v.field("position", &position, Required(Position()))
    }
}

/// `suggestion.kept`: the person kept a suggested widget.
public struct SuggestionAnswer: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md).
    public var stack: String
    /// The `instance` field of the event contract (docs/events.md).
    public var instance: String
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String

    static var blank: Self { Self(stack: "", instance: "", kind: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("instance", &instance, Required(Text()))
        try v.field("kind", &kind, Required(Text()))
    }
}

/// `widget.viewed` / `widget.tapped`: engagement with a widget, named by instance or by
/// (app, kind).
public struct Engagement: DescribedShape {
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

    static var blank: Self { Self() }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("instance", &instance, Omittable(Text()))
        try v.field("kind", &kind, Omittable(Text()))
        try v.field("duration", &duration, Omittable(Seconds()))
        try v.field("stack", &stack, Omittable(Text()))
        try v.field("inStack", &inStack, Omittable(Flag()))
    }
}

/// `stack.observed`: what the device itself recorded on screen (ground truth).
public struct StackObserved: DescribedShape {
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

    static var blank: Self { Self(onScreen: false) }

    /// `onScreen` and `scope` share one byte: bit 0 `onScreen`, bit 1 a written scope, bit 2
    /// scope `stack`. Records stored before `scope` existed hold 0 or 1 there.
    var flags: UInt8 {
        get { (onScreen ? 1 : 0) | (scope == nil ? 0 : 2) | (scope == .stack ? 4 : 0) }
        set {
            onScreen = newValue & 1 != 0
            scope = newValue & 2 == 0 ? nil : newValue & 4 != 0 ? .stack : .top
        }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Omittable(Text()))
        try v.field("instance", &instance, Omittable(Text()))
        try v.field("kind", &kind, Omittable(Text()))
        try v.jsonOnly("onScreen", &onScreen, Required(Flag()))
        try v.binaryOnly(&flags, Byte())
        try v.field("duration", &duration, Omittable(Seconds()))
        try v.jsonOnly("scope", &scope, Omittable(RawChoice<Scope>()))
    }
}

/// `suggestion.dismissed`: the person removed a suggested widget. The device's own records
/// (DuetExpertCenter `widgetSuggestionDismiss`) lack the stack and the instance; they then
/// name the widget's app or extension (`extension`, kept among the event's unknown fields)
/// and kind.
public struct SuggestionDismissal: DescribedShape {
    /// The `stack` field of the event contract (docs/events.md), when recorded.
    public var stack: String?
    /// The `instance` field of the event contract (docs/events.md), when recorded.
    public var instance: String?
    /// The `kind` field of the event contract (docs/events.md).
    public var kind: String

    static var blank: Self { Self(kind: "") }

    // The stored form is `suggestion.kept`'s, with an empty string for a field not recorded,
    // so that stores written before the fields became optional read unchanged.
    private var storedStack: String {
        get { stack ?? "" }
        set { stack = newValue.isEmpty ? nil : newValue }
    }

    private var storedInstance: String {
        get { instance ?? "" }
        set { instance = newValue.isEmpty ? nil : newValue }
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.jsonOnly("stack", &stack, Omittable(Text()))
        try v.jsonOnly("instance", &instance, Omittable(Text()))
        try v.binaryOnly(&storedStack, Text(nonEmpty: false))
        try v.binaryOnly(&storedInstance, Text(nonEmpty: false))
        try v.field("kind", &kind, Required(Text()))
    }
}

import RecordFormat

/// `stack.layoutObserved`: the device's own record of its stacks as of the event's time
/// (docs/events.md, "Observed layouts").
public struct LayoutObserved: DescribedShape {
    /// An id for the record it comes from (a layout file's hash, say).
    public var layout: String
    /// Every stack the record lists, each with its members in stack order.
    public var stacks: [ObservedStack]
    /// Widgets on the home screen outside any stack; nil when the record does not say.
    public var widgets: [WidgetRef]?
    /// `recorded` (a layout file the device wrote) or `inferred` (reconstructed from the
    /// device's on-screen records).
    public var method: String
    /// Whether the record lists every stack of the device.
    public var complete: Bool

    static let methods = ["recorded", "inferred"]

    /// Creates an observed layout.
    public init(layout: String, stacks: [ObservedStack], widgets: [WidgetRef]?, method: String, complete: Bool) {
        self.layout = layout
        self.stacks = stacks
        self.widgets = widgets
        self.method = method
        self.complete = complete
    }

    /// Whether the record is a file the device wrote, not a reconstruction.
    public var isRecorded: Bool { method == "recorded" }

    /// The unknown field with which an importer says that the event's time comes from a
    /// file time the extraction does not keep exactly (a zip's DOS time: two-second steps,
    /// no time zone): answers resting on the layout list `LAYOUT_TIME_UNCERTAIN`.
    public static let timeUncertainKey = "timeUncertain"

    static var blank: Self { Self(layout: "", stacks: [], widgets: nil, method: "", complete: false) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("layout", &layout, Required(Text()))
        try v.field(
            "stacks", &stacks, Required(List(Nested<ObservedStack>(), limit: ContractLimits.layoutStacks)))
        try v.field("widgets", &widgets, Omittable(List(Nested<WidgetRef>(), limit: ContractLimits.stackMembers)))
        try v.field("method", &method, Required(Choice(Self.methods)))
        try v.field("complete", &complete, Required(Flag()))
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        var seen = Set<String>()
        for s in stacks where !seen.insert(s.stack).inserted {
            throw f.error("stacks", "stack \(s.stack) is listed twice; a layout lists each stack once")
        }
    }
}

/// One stack of a `stack.layoutObserved`: its members in stack order and the switches the
/// record holds (nil: not recorded).
public struct ObservedStack: DescribedShape {
    /// The stack's id.
    public var stack: String
    /// `iOS`, `iPadOS` or `watchOS`.
    public var platform: String
    /// The stack's widget family.
    public var family: String
    /// The members, in stack order.
    public var members: [WidgetRef]
    /// Smart Rotate, when the record holds it.
    public var smartRotate: Bool?
    /// Widget Suggestions, when the record holds it.
    public var widgetSuggestions: Bool?
    /// The instance the person last scrolled to, when recorded (context only: it never
    /// moves the top, since the scroll's time is not recorded).
    public var selected: String?

    /// The switches the record does not hold, in words (`Smart Rotate`, `Widget
    /// Suggestions`): an answer resting on it keeps the earlier or default value of each
    /// (`SETTINGS_ASSUMED`).
    public var unrecordedSwitches: [String] {
        var out = [String]()
        if smartRotate == nil { out.append("Smart Rotate") }
        if widgetSuggestions == nil { out.append("Widget Suggestions") }
        return out
    }

    /// Creates an observed stack.
    public init(
        stack: String, platform: String, family: String, members: [WidgetRef], smartRotate: Bool?,
        widgetSuggestions: Bool?, selected: String?
    ) {
        self.stack = stack
        self.platform = platform
        self.family = family
        self.members = members
        self.smartRotate = smartRotate
        self.widgetSuggestions = widgetSuggestions
        self.selected = selected
    }

    static var blank: Self {
        Self(stack: "", platform: "", family: "", members: [], smartRotate: nil, widgetSuggestions: nil, selected: nil)
    }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
        try v.field("platform", &platform, Required(Choice(StackCreated.platforms)))
        try v.field("family", &family, Required(Text()))
        try v.field("members", &members, Required(List(Nested<WidgetRef>(), limit: ContractLimits.stackMembers)))
        try v.field("smartRotate", &smartRotate, Omittable(Flag()))
        try v.field("widgetSuggestions", &widgetSuggestions, Omittable(Flag()))
        try v.field("selected", &selected, Omittable(Text()))
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        var seen = Set<String>()
        for m in members where !seen.insert(m.instance).inserted {
            throw f.error("members", "instance \(m.instance) is listed twice in stack \(stack)")
        }
    }
}

/// `stack.removed`: a stack no longer exists.
public struct StackRemoved: DescribedShape {
    /// The stack's id.
    public var stack: String

    static var blank: Self { Self(stack: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Required(Text()))
    }
}

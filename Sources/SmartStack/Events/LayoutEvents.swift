import RecordFormat

/// `stack.layoutObserved`: the device's own record of its stacks as of the event's time
/// (docs/events.md, "Observed layouts").
public struct LayoutObserved: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        layout = try f.string("layout")
        stacks = try f.shapes("stacks", limit: ContractLimits.layoutStacks)
        widgets = f.has("widgets") ? try f.shapes("widgets", limit: ContractLimits.stackMembers) : nil
        method = try f.enumeration("method", Self.methods)
        complete = try f.bool("complete")
        var seen = Set<String>()
        for s in stacks where !seen.insert(s.stack).inserted {
            throw f.error("stacks", "stack \(s.stack) is listed twice; a layout lists each stack once")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("layout")
        w.string(layout)
        w.key("stacks")
        w.beginArray()
        for s in stacks { s.write(&w) }
        w.endArray()
        if let widgets {
            w.key("widgets")
            w.beginArray()
            for widget in widgets { widget.write(&w) }
            w.endArray()
        }
        w.key("method")
        w.string(method)
        w.key("complete")
        w.bool(complete)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(layout)
        out.shapes(stacks)
        out.optional(widgets) { $0.shapes($1) }
        out.interned(method)
        out.bool(complete)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        layout = try b.interned()
        stacks = try b.shapes()
        widgets = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shapes(WidgetRef.self) }
        method = try b.interned()
        complete = try b.bool()
    }
}

/// One stack of a `stack.layoutObserved`: its members in stack order and the switches the
/// record holds (nil: not recorded).
public struct ObservedStack: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
        platform = try f.enumeration("platform", StackCreated.platforms)
        family = try f.string("family")
        members = try f.shapes("members", limit: ContractLimits.stackMembers)
        smartRotate = try f.optionalBool("smartRotate")
        widgetSuggestions = try f.optionalBool("widgetSuggestions")
        selected = try f.optionalNonEmptyString("selected")
        var seen = Set<String>()
        for m in members where !seen.insert(m.instance).inserted {
            throw f.error("members", "instance \(m.instance) is listed twice in stack \(stack)")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
        w.key("platform")
        w.string(platform)
        w.key("family")
        w.string(family)
        w.key("members")
        w.beginArray()
        for m in members { m.write(&w) }
        w.endArray()
        if let smartRotate {
            w.key("smartRotate")
            w.bool(smartRotate)
        }
        if let widgetSuggestions {
            w.key("widgetSuggestions")
            w.bool(widgetSuggestions)
        }
        if let selected {
            w.key("selected")
            w.string(selected)
        }
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
        out.interned(platform)
        out.interned(family)
        out.shapes(members)
        out.optional(smartRotate) { $0.bool($1) }
        out.optional(widgetSuggestions) { $0.bool($1) }
        out.optional(selected) { $0.interned($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
        platform = try b.interned()
        family = try b.interned()
        members = try b.shapes()
        smartRotate = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.bool() }
        widgetSuggestions = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.bool() }
        selected = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
    }
}

/// `stack.removed`: a stack no longer exists.
public struct StackRemoved: Shape {
    /// The stack's id.
    public var stack: String

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.string("stack")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("stack")
        w.string(stack)
    }

    func encode(_ out: inout BinaryOut) {
        out.interned(stack)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.interned()
    }
}

public import RecordFormat

/// `stack.rotated`: the device's own record of a Smart Rotate decision (DuetExpertCenter
/// `proactiveStackRotations`): ground truth for the model's rotations.
public struct StackRotated: DescribedShape {
    /// The stack, when the record holds it.
    public var stack: String?
    /// The widget's instance id, when the record holds it.
    public var instance: String?
    /// The widget extension's bundle id.
    public var extensionBundle: String?
    /// The widget kind.
    public var kind: String?
    /// Why the device rotated, as it recorded it.
    public var criterion: String?
    /// Whether the device recorded the rotation as a staleness rotation.
    public var staleness: Bool?

    static var blank: Self { Self() }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("stack", &stack, Omittable(Text()))
        try v.field("instance", &instance, Omittable(Text()))
        try v.field("extension", &extensionBundle, Omittable(Text()))
        try v.field("kind", &kind, Omittable(Text()))
        try v.field("criterion", &criterion, Omittable(Text()))
        try v.field("staleness", &staleness, Omittable(Flag()))
    }
}

/// `suggestion.observed`: the device's own record that a suggested widget appeared
/// (DuetExpertCenter `suggestedWidgets`).
public struct SuggestionObserved: DescribedShape {
    /// The widget's instance id, when the record holds it.
    public var instance: String?
    /// The widget extension's bundle id.
    public var extensionBundle: String?
    /// The widget kind.
    public var kind: String
    /// The stack, when the record holds it.
    public var stack: String?

    static var blank: Self { Self(kind: "") }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("instance", &instance, Omittable(Text()))
        try v.field("extension", &extensionBundle, Omittable(Text()))
        try v.field("kind", &kind, Required(Text()))
        try v.field("stack", &stack, Omittable(Text()))
    }
}

/// `widget.relevanceObserved`: the device's own record of a timeline entry's relevance
/// (DuetExpertCenter `timelineDonations`).
public struct RelevanceObserved: DescribedShape {
    /// The widget extension's bundle id.
    public var extensionBundle: String?
    /// The widget kind.
    public var kind: String
    /// The widget family, when recorded.
    public var family: String?
    /// The configuration's hash, as the device recorded it.
    public var intentHash: String?
    /// The entry's date.
    public var date: Timestamp
    /// The entry's relevance; nil when the record holds no score.
    public var relevance: Relevance?

    static var blank: Self { Self(kind: "", date: Timestamp(microseconds: 0)) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("extension", &extensionBundle, Omittable(Text()))
        try v.field("kind", &kind, Required(Text()))
        try v.field("family", &family, Omittable(Text()))
        try v.field("intentHash", &intentHash, Omittable(Text()))
        try v.field("date", &date, Required(Time()))
        try v.field("relevance", &relevance, Nullable(Nested<Relevance>()))
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        if let r = relevance, !EventLimits.endFits(date, plus: r.duration) {
            throw f.error(
                "relevance", "the entry's date plus its duration lies after 2200; the window must end within 1970-2200")
        }
    }
}

extension CanonicalWriter {
    /// `"key": value` when the value is present.
    public mutating func optionalString(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }
}

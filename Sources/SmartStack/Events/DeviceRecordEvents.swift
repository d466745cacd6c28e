public import RecordFormat

/// `stack.rotated`: the device's own record of a Smart Rotate decision (DuetExpertCenter
/// `proactiveStackRotations`): ground truth for the model's rotations.
public struct StackRotated: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        stack = try f.optionalNonEmptyString("stack")
        instance = try f.optionalNonEmptyString("instance")
        extensionBundle = try f.optionalNonEmptyString("extension")
        kind = try f.optionalNonEmptyString("kind")
        criterion = try f.optionalNonEmptyString("criterion")
        staleness = try f.optionalBool("staleness")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.optionalString("stack", stack)
        w.optionalString("instance", instance)
        w.optionalString("extension", extensionBundle)
        w.optionalString("kind", kind)
        w.optionalString("criterion", criterion)
        if let staleness {
            w.key("staleness")
            w.bool(staleness)
        }
    }

    func encode(_ out: inout BinaryOut) {
        for s in [stack, instance, extensionBundle, kind, criterion] { out.optional(s) { $0.interned($1) } }
        out.optional(staleness) { $0.bool($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        stack = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        extensionBundle = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        kind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        criterion = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        staleness = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.bool() }
    }
}

/// `suggestion.observed`: the device's own record that a suggested widget appeared
/// (DuetExpertCenter `suggestedWidgets`).
public struct SuggestionObserved: Shape {
    /// The widget's instance id, when the record holds it.
    public var instance: String?
    /// The widget extension's bundle id.
    public var extensionBundle: String?
    /// The widget kind.
    public var kind: String
    /// The stack, when the record holds it.
    public var stack: String?

    init(fields f: inout ObjectFields) throws(FieldError) {
        instance = try f.optionalNonEmptyString("instance")
        extensionBundle = try f.optionalNonEmptyString("extension")
        kind = try f.string("kind")
        stack = try f.optionalNonEmptyString("stack")
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.optionalString("instance", instance)
        w.optionalString("extension", extensionBundle)
        w.key("kind")
        w.string(kind)
        w.optionalString("stack", stack)
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(instance) { $0.interned($1) }
        out.optional(extensionBundle) { $0.interned($1) }
        out.interned(kind)
        out.optional(stack) { $0.interned($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        instance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        extensionBundle = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        kind = try b.interned()
        stack = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
    }
}

/// `widget.relevanceObserved`: the device's own record of a timeline entry's relevance
/// (DuetExpertCenter `timelineDonations`).
public struct RelevanceObserved: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        extensionBundle = try f.optionalNonEmptyString("extension")
        kind = try f.string("kind")
        family = try f.optionalNonEmptyString("family")
        intentHash = try f.optionalNonEmptyString("intentHash")
        date = try f.time("date")
        relevance = try f.nullableShape("relevance")
        if let r = relevance, !EventLimits.endFits(date, plus: r.duration) {
            throw f.error(
                "relevance", "the entry's date plus its duration lies after 2200; the window must end within 1970-2200")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.optionalString("extension", extensionBundle)
        w.key("kind")
        w.string(kind)
        w.optionalString("family", family)
        w.optionalString("intentHash", intentHash)
        w.key("date")
        w.time(date)
        w.key("relevance")
        if let relevance { relevance.write(&w) } else { w.null() }
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(extensionBundle) { $0.interned($1) }
        out.interned(kind)
        out.optional(family) { $0.interned($1) }
        out.optional(intentHash) { $0.interned($1) }
        out.time(date)
        out.optional(relevance) { $0.shape($1) }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        extensionBundle = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        kind = try b.interned()
        family = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        intentHash = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        date = try b.time()
        relevance = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.shape(Relevance.self) }
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

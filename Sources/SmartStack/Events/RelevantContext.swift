public import RecordFormat

/// A RelevantContext clue (exactly one key), or an observed device state.
public enum RelevantContext: UnionShape {
    /// `{"date": {...}}`: an exact date or a date range.
    case date(DateClue)
    /// `{"location": {...}}`: an inferred place, a region or a point-of-interest category.
    case location(LocationClue)
    /// `{"fitness": "workoutActive"|"activityRingsIncomplete"}`.
    case fitness(String)
    /// `{"sleep": "bedtime"|"wakeup"}`.
    case sleep(String)
    /// `{"hardware": {"headphones": "connected"}}`.
    case headphones(String)
    /// `{"device": "backlight"|"locked"|"lowPower"|"trueTone"}`: an observed device state.
    case deviceState(String)

    static let fitnessValues = ["workoutActive", "activityRingsIncomplete"]
    static let sleepValues = ["bedtime", "wakeup"]
    static let deviceValues = ["backlight", "locked", "lowPower", "trueTone"]

    /// A placeholder that readers replace.
    static var blank: Self { .deviceState("") }

    static let form = UnionForm.onlyKey(
        what: "a context", unknown: "is not a context; use one of date, location, fitness, sleep, hardware, device")

    static let variants: [Variant<Self>] = [
        Variant("date", Nested<DateClue>(), Self.date) { if case .date(let d) = $0 { d } else { nil } },
        Variant("location", Nested<LocationClue>(), Self.location) {
            if case .location(let l) = $0 { l } else { nil }
        },
        Variant("fitness", Choice(fitnessValues), Self.fitness) { if case .fitness(let s) = $0 { s } else { nil } },
        Variant("sleep", Choice(sleepValues), Self.sleep) { if case .sleep(let s) = $0 { s } else { nil } },
        Variant(
            "hardware",
            KeyedObject(
                key: "headphones", value: Choice(["connected"]), what: "hardware",
                message: "hardware must be {\"headphones\": \"connected\"}"),
            Self.headphones
        ) { if case .headphones(let s) = $0 { s } else { nil } },
        Variant("device", Choice(deviceValues), Self.deviceState) {
            if case .deviceState(let s) = $0 { s } else { nil }
        },
    ]
}

/// A date clue: `{"at": T}` or `{"from": T, "to": T, "kind": ...}`.
public struct DateClue: DescribedShape {
    /// The exact moment, for `{"at": T}`.
    public var at: Timestamp?
    /// The range's start and end.
    public var from: Timestamp?, to: Timestamp?
    /// `default`, `informational` or `scheduled`.
    public var kind: String?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    static var blank: Self { Self() }

    // The stored form holds `at` first; the canonical form writes it after the range.
    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.binaryOnly(&at, Omittable(Time()))
        try v.field("from", &from, Omittable(Time()))
        try v.field("to", &to, Omittable(Time()))
        try v.field("kind", &kind, Omittable(Choice(["default", "informational", "scheduled"])))
        try v.jsonOnly("at", &at, Omittable(Time()))
        try v.field("", &extras, Extras())
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        if at != nil {
            if from != nil || to != nil { throw f.error("at", "a date clue has either at, or from and to, not both") }
            return
        }
        guard let from else { throw f.error("from", "is required but missing") }
        guard let to else { throw f.error("to", "is required but missing") }
        if to.microseconds < from.microseconds { throw f.error("to", "ends before from") }
    }
}

/// A location clue: exactly one of `inferred`, `region`, `category`.
public enum LocationClue: UnionShape {
    /// `home`, `work`, `school` or `commute`.
    case inferred(String)
    /// A circular region.
    case region(Region)
    /// A point-of-interest category, e.g. `cafe`.
    case category(String)

    static let form = UnionForm.onlyKey(
        what: "a location", unknown: "is not a location clue; use inferred, region or category")

    static let variants: [Variant<Self>] = [
        Variant("inferred", Choice(["home", "work", "school", "commute"]), Self.inferred) {
            if case .inferred(let s) = $0 { s } else { nil }
        },
        Variant("region", Nested<Region>(), Self.region) { if case .region(let r) = $0 { r } else { nil } },
        Variant("category", Text(), Self.category) { if case .category(let s) = $0 { s } else { nil } },
    ]
}

/// A circular region: latitude, longitude (degrees) and radius (metres).
public struct Region: DescribedShape {
    /// The `latitude` field of the event contract (docs/events.md).
    public var latitude: Double, longitude: Double, radius: Double
    /// Unknown keys.
    public var extras: [JSONMember] = []

    static var blank: Self { Self(latitude: 0, longitude: 0, radius: 0) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("latitude", &latitude, Required(Number()))
        try v.field("longitude", &longitude, Required(Number()))
        try v.field("radius", &radius, Required(Number()))
        try v.field("", &extras, Extras())
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        guard (-90...90).contains(latitude) else { throw f.error("latitude", "must be between -90 and 90") }
        guard (-180...180).contains(longitude) else { throw f.error("longitude", "must be between -180 and 180") }
        guard radius >= 0 else { throw f.error("radius", "must not be negative") }
    }
}

extension RelevantContext {
    /// The context in canonical JSON, e.g. `{"fitness":"workoutActive"}`.
    public var canonicalText: String {
        var w = CanonicalWriter(capacity: 64)
        write(&w)
        return w.text
    }
}

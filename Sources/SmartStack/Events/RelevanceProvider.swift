public import RecordFormat

/// An INRelevanceProvider: exactly one of `date`, `location`, `dailyRoutine`.
public enum RelevanceProvider: UnionShape {
    /// A date window; `end` nil means open-ended.
    case date(start: Timestamp, end: Timestamp?)
    /// A location region.
    case location(Region)
    /// A daily routine situation, e.g. `morning`.
    case dailyRoutine(String)

    static let routines = [
        "morning", "evening", "home", "work", "school", "gym", "commute",
        "headphonesConnected", "activeWorkout", "physicalActivityIncomplete",
    ]

    static let form = UnionForm.onlyKey(
        what: "a relevance provider", unknown: "is not a relevance provider; use date, location or dailyRoutine")

    static let variants: [Variant<Self>] = [
        Variant(
            "date", Nested<DateWindow>(), { .date(start: $0.start, end: $0.end) },
            { if case .date(let start, let end) = $0 { DateWindow(start: start, end: end) } else { nil } }),
        Variant(
            "location",
            KeyedObject(
                key: "region", value: Nested<Region>(), what: "a location provider",
                message: "a location provider is {\"region\": {...}}"),
            Self.location
        ) { if case .location(let r) = $0 { r } else { nil } },
        Variant("dailyRoutine", Choice(routines), Self.dailyRoutine) {
            if case .dailyRoutine(let s) = $0 { s } else { nil }
        },
    ]
}

/// The window of a date provider: `{"start": T, "end": T or null}`, and no other key.
struct DateWindow: DescribedShape {
    var start: Timestamp
    var end: Timestamp?

    static var blank: Self { Self(start: Timestamp(microseconds: 0), end: nil) }

    mutating func describe<V: FieldVisitor>(_ v: inout V) throws {
        try v.field("start", &start, Required(Time()))
        try v.field("end", &end, Nullable(Time(), required: "is required (a time, or null for open-ended)"))
    }

    func validate(_ f: ObjectFields) throws(FieldError) {
        if let end, end.microseconds < start.microseconds { throw f.error("end", "ends before start") }
        if let first = try f.extras().first { throw f.error(first.key, "is not a field of a date provider") }
    }
}

public import RecordFormat

/// An INRelevanceProvider: exactly one of `date`, `location`, `dailyRoutine`.
public enum RelevanceProvider: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        let key = try f.requireSingleKey("a relevance provider")
        switch key {
        case "date":
            let t = try f.require("date")
            var d = try f.object(t)
            let start = try d.time("start")
            var end: Timestamp?
            guard let e = d.take("end") else { throw d.error("end", "is required (a time, or null for open-ended)") }
            if !d.isNull(e) {
                end = try d.timeValue(e)
                if end!.microseconds < start.microseconds { throw d.error("end", "ends before start", at: e) }
            }
            let extra = try d.extras()
            if let first = extra.first { throw d.error(first.key, "is not a field of a date provider") }
            self = .date(start: start, end: end)
        case "location":
            let t = try f.require("location")
            var l = try f.object(t)
            guard try l.requireSingleKey("a location provider") == "region" else {
                throw l.error("region", "a location provider is {\"region\": {...}}")
            }
            self = .location(try l.shape("region"))
        case "dailyRoutine":
            self = .dailyRoutine(try f.enumeration("dailyRoutine", Self.routines))
        default:
            throw f.error(key, "is not a relevance provider; use date, location or dailyRoutine")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        switch self {
        case .date(let start, let end):
            w.key("date")
            w.beginObject()
            w.key("start")
            w.time(start)
            w.key("end")
            if let end { w.time(end) } else { w.null() }
            w.endObject()
        case .location(let r):
            w.key("location")
            w.beginObject()
            w.key("region")
            r.write(&w)
            w.endObject()
        case .dailyRoutine(let s):
            w.key("dailyRoutine")
            w.string(s)
        }
    }

    func encode(_ out: inout BinaryOut) {
        switch self {
        case .date(let start, let end):
            out.byte(0)
            out.time(start)
            out.optional(end) { $0.time($1) }
        case .location(let r):
            out.byte(1)
            out.shape(r)
        case .dailyRoutine(let s):
            out.byte(2)
            out.interned(s)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        switch try b.byte() {
        case 0:
            let start = try b.time()
            self = .date(
                start: start, end: try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.time() })
        case 1: self = .location(try b.shape())
        case 2: self = .dailyRoutine(try b.interned())
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a provider tag")
        }
    }
}

public import RecordFormat

/// A RelevantContext clue (exactly one key), or an observed device state.
public enum RelevantContext: Shape {
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

    init(fields f: inout ObjectFields) throws(FieldError) {
        let key = try f.requireSingleKey("a context")
        switch key {
        case "date": self = .date(try f.shape("date"))
        case "location": self = .location(try f.shape("location"))
        case "fitness": self = .fitness(try f.enumeration("fitness", Self.fitnessValues))
        case "sleep": self = .sleep(try f.enumeration("sleep", Self.sleepValues))
        case "hardware":
            let t = try f.require("hardware")
            var h = try f.object(t)
            guard try h.requireSingleKey("hardware") == "headphones" else {
                throw h.error("headphones", "hardware must be {\"headphones\": \"connected\"}")
            }
            self = .headphones(try h.enumeration("headphones", ["connected"]))
        case "device": self = .deviceState(try f.enumeration("device", Self.deviceValues))
        default:
            throw f.error(key, "is not a context; use one of date, location, fitness, sleep, hardware, device")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        switch self {
        case .date(let d):
            w.key("date")
            d.write(&w)
        case .location(let l):
            w.key("location")
            l.write(&w)
        case .fitness(let s):
            w.key("fitness")
            w.string(s)
        case .sleep(let s):
            w.key("sleep")
            w.string(s)
        case .headphones(let s):
            w.key("hardware")
            w.beginObject()
            w.key("headphones")
            w.string(s)
            w.endObject()
        case .deviceState(let s):
            w.key("device")
            w.string(s)
        }
    }

    func encode(_ out: inout BinaryOut) {
        switch self {
        case .date(let d):
            out.byte(0)
            out.shape(d)
        case .location(let l):
            out.byte(1)
            out.shape(l)
        case .fitness(let s):
            out.byte(2)
            out.interned(s)
        case .sleep(let s):
            out.byte(3)
            out.interned(s)
        case .headphones(let s):
            out.byte(4)
            out.interned(s)
        case .deviceState(let s):
            out.byte(5)
            out.interned(s)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        switch try b.byte() {
        case 0: self = .date(try b.shape())
        case 1: self = .location(try b.shape())
        case 2: self = .fitness(try b.interned())
        case 3: self = .sleep(try b.interned())
        case 4: self = .headphones(try b.interned())
        case 5: self = .deviceState(try b.interned())
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a context tag")
        }
    }
}

/// A date clue: `{"at": T}` or `{"from": T, "to": T, "kind": ...}`.
public struct DateClue: Shape {
    /// The exact moment, for `{"at": T}`.
    public var at: Timestamp?
    /// The range's start and end.
    public var from: Timestamp?, to: Timestamp?
    /// `default`, `informational` or `scheduled`.
    public var kind: String?
    /// Unknown keys.
    public var extras: [JSONMember] = []

    init(fields f: inout ObjectFields) throws(FieldError) {
        if f.has("at") {
            at = try f.time("at")
            if f.has("from") || f.has("to") {
                throw f.error("at", "a date clue has either at, or from and to, not both")
            }
        } else {
            from = try f.time("from")
            to = try f.time("to")
            if to!.microseconds < from!.microseconds { throw f.error("to", "ends before from") }
        }
        kind = try f.optionalEnumeration("kind", ["default", "informational", "scheduled"])
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        if let from {
            w.key("from")
            w.time(from)
        }
        if let to {
            w.key("to")
            w.time(to)
        }
        if let kind {
            w.key("kind")
            w.string(kind)
        }
        if let at {
            w.key("at")
            w.time(at)
        }
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.optional(at) { $0.time($1) }
        out.optional(from) { $0.time($1) }
        out.optional(to) { $0.time($1) }
        out.optional(kind) { $0.interned($1) }
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        at = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.time() }
        from = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.time() }
        to = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.time() }
        kind = try b.optional { (b: inout BinaryIn) throws(ByteReader.Error) in try b.interned() }
        extras = try b.extras()
    }
}

/// A location clue: exactly one of `inferred`, `region`, `category`.
public enum LocationClue: Shape {
    /// `home`, `work`, `school` or `commute`.
    case inferred(String)
    /// A circular region.
    case region(Region)
    /// A point-of-interest category, e.g. `cafe`.
    case category(String)

    init(fields f: inout ObjectFields) throws(FieldError) {
        let key = try f.requireSingleKey("a location")
        switch key {
        case "inferred": self = .inferred(try f.enumeration("inferred", ["home", "work", "school", "commute"]))
        case "region": self = .region(try f.shape("region"))
        case "category": self = .category(try f.string("category"))
        default: throw f.error(key, "is not a location clue; use inferred, region or category")
        }
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        switch self {
        case .inferred(let s):
            w.key("inferred")
            w.string(s)
        case .region(let r):
            w.key("region")
            r.write(&w)
        case .category(let s):
            w.key("category")
            w.string(s)
        }
    }

    func encode(_ out: inout BinaryOut) {
        switch self {
        case .inferred(let s):
            out.byte(0)
            out.interned(s)
        case .region(let r):
            out.byte(1)
            out.shape(r)
        case .category(let s):
            out.byte(2)
            out.interned(s)
        }
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        switch try b.byte() {
        case 0: self = .inferred(try b.interned())
        case 1: self = .region(try b.shape())
        case 2: self = .category(try b.interned())
        default: throw ByteReader.Error(offset: b.r.bytes.offset, expected: "a location tag")
        }
    }
}

/// A circular region: latitude, longitude (degrees) and radius (metres).
public struct Region: Shape {
    /// The `latitude` field of the event contract (docs/events.md).
    public var latitude: Double, longitude: Double, radius: Double
    /// Unknown keys.
    public var extras: [JSONMember] = []

    init(fields f: inout ObjectFields) throws(FieldError) {
        latitude = try f.number("latitude")
        longitude = try f.number("longitude")
        radius = try f.number("radius")
        guard (-90...90).contains(latitude) else { throw f.error("latitude", "must be between -90 and 90") }
        guard (-180...180).contains(longitude) else { throw f.error("longitude", "must be between -180 and 180") }
        guard radius >= 0 else { throw f.error("radius", "must not be negative") }
        extras = try f.extras()
    }

    func writeMembers(_ w: inout CanonicalWriter) {
        w.key("latitude")
        w.number(latitude)
        w.key("longitude")
        w.number(longitude)
        w.key("radius")
        w.number(radius)
        w.members(extras)
    }

    func encode(_ out: inout BinaryOut) {
        out.number(latitude)
        out.number(longitude)
        out.number(radius)
        out.extras(extras)
    }

    init(binary b: inout BinaryIn) throws(ByteReader.Error) {
        latitude = try b.number()
        longitude = try b.number()
        radius = try b.number()
        extras = try b.extras()
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

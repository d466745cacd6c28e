/// An instant with microsecond precision and the UTC offset it was written with.
///
/// Ordering and equality of instants use `microseconds` only; `offsetMinutes` is kept
/// so that a time is written back as it was given. Use `==` on the whole value (the
/// synthesized one) for canonical equality, and `instantEquals` for the same instant.
public struct Timestamp: Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64
    /// The UTC offset the time was written with, in minutes (`+02:00` is 120).
    public var offsetMinutes: Int16

    /// Creates a timestamp.
    public init(microseconds: Int64, offsetMinutes: Int16 = 0) {
        self.microseconds = microseconds
        self.offsetMinutes = offsetMinutes
    }

    /// The earliest time the contract allows: 1970-01-01T00:00:00Z.
    public static let minimum = Timestamp(microseconds: 0)
    /// The first instant after the latest time the contract allows (year 2200 ends).
    public static let limit = Timestamp(microseconds: Timestamp.daysFromCivil(2201, 1, 1) * 86_400_000_000)

    /// Whether a time and offset are ones the event contract allows (years 1970-2200, an
    /// offset under 24 hours): decoders of stored bytes check it, so a damaged record
    /// cannot produce a time that no writer could.
    public static func isStorable(microseconds: Int64, offsetMinutes: Int16) -> Bool {
        microseconds >= 0 && microseconds < limit.microseconds && abs(Int(offsetMinutes)) < 24 * 60
    }

    /// The RFC 3339 text, with the offset and trimmed fractional seconds.
    public var description: String { rfc3339 }

    /// Whether two timestamps name the same instant, whatever their offsets.
    public func instantEquals(_ other: Timestamp) -> Bool { microseconds == other.microseconds }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01.
    public static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

extension Timestamp: Comparable {
    /// Orders by instant, then by offset so that the order is total and stable.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds != rhs.microseconds
            ? lhs.microseconds < rhs.microseconds : lhs.offsetMinutes < rhs.offsetMinutes
    }
}

extension Timestamp: Codable {
    /// Decodes `[microseconds, offsetMinutes]`.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        self.init(microseconds: try c.decode(Int64.self), offsetMinutes: try c.decode(Int16.self))
    }

    /// Encodes as `[microseconds, offsetMinutes]`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(microseconds)
        try c.encode(offsetMinutes)
    }
}

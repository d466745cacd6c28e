import Foundation
import RecordFormat

/// A device's local time: its `device.info` time zone when given, else the offset of its
/// most recent event. Days and hours of day (rate limits, usage patterns) are local.
struct LocalClock: Hashable {
    /// The IANA time zone name, when the device declared one.
    private(set) var zoneName: String?
    /// The offset of the most recent event, in minutes.
    private(set) var lastOffset: Int16 = 0

    private var cache = OffsetCache()

    init() {}

    mutating func setZone(_ name: String?) {
        guard let name, TimeZone(identifier: name) != nil else { return }
        zoneName = name
        cache = OffsetCache()
    }

    mutating func noteOffset(_ minutes: Int16) { lastOffset = minutes }

    /// The UTC offset at `micros`, in minutes: from the span known to hold it, else
    /// asked of the zone.
    @inline(__always)
    mutating func offset(at micros: Int64) -> Int16 {
        if let o = cache.lookup(micros) { return o }
        return zoneOffset(at: micros)
    }

    /// The UTC offset at `micros` asked of the zone, kept for the span up to the zone's
    /// next transition; without a zone, the last event's offset.
    private mutating func zoneOffset(at micros: Int64) -> Int16 {
        guard let zoneName else { return lastOffset }
        guard let zone = TimeZone(identifier: zoneName) else { return lastOffset }
        let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
        let offset = Int16(zone.secondsFromGMT(for: date) / 60)
        // An offset holds until the zone's next transition.
        let next =
            zone.nextDaylightSavingTimeTransition(after: date).map { Int64($0.timeIntervalSince1970 * 1_000_000) }
            ?? Int64.max
        cache.store(from: micros, until: next, offset: offset)
        return offset
    }

    /// The local day number (days since 1970-01-01 in local time).
    mutating func day(at micros: Int64) -> Int64 {
        let local = micros + Int64(offset(at: micros)) * 60_000_000
        return local >= 0 ? local / 86_400_000_000 : (local - 86_399_999_999) / 86_400_000_000
    }

    /// The local hour of day, 0-23.
    mutating func hour(at micros: Int64) -> Int {
        let local = micros + Int64(offset(at: micros)) * 60_000_000
        let inDay = ((local % 86_400_000_000) + 86_400_000_000) % 86_400_000_000
        return Int(inDay / 3_600_000_000)
    }

    /// The next local hour boundary after `micros`.
    mutating func nextHour(after micros: Int64) -> Int64 {
        let o = Int64(offset(at: micros)) * 60_000_000
        let local = micros + o
        let floor = local >= 0 ? local / 3_600_000_000 : (local - 3_599_999_999) / 3_600_000_000
        return (floor + 1) * 3_600_000_000 - o
    }

    /// `micros` as a timestamp written in the local offset.
    mutating func timestamp(_ micros: Int64) -> Timestamp {
        Timestamp(microseconds: micros, offsetMinutes: offset(at: micros))
    }

    /// `2021-12-01 09:41` in local time: for an instant that may lie on another day than
    /// the answer's.
    mutating func dateTimeText(_ micros: Int64) -> String {
        String(timestamp(micros).rfc3339.prefix(10)) + " " + clockText(micros)
    }

    /// `09:41` in local time.
    mutating func clockText(_ micros: Int64) -> String {
        let local = micros + Int64(offset(at: micros)) * 60_000_000
        let inDay = ((local % 86_400_000_000) + 86_400_000_000) % 86_400_000_000
        let minutes = Int(inDay / 60_000_000)
        let (h, m) = (minutes / 60, minutes % 60)
        return String(unsafeUninitializedCapacity: 5) { text in
            let zero = UInt8(ascii: "0")
            (text[0], text[1], text[2]) = (zero + UInt8(h / 10), zero + UInt8(h % 10), UInt8(ascii: ":"))
            (text[3], text[4]) = (zero + UInt8(m / 10), zero + UInt8(m % 10))
            return 5
        }
    }
}

/// The offset of one span of time between zone transitions (not part of the state).
struct OffsetCache: Hashable {
    var from: Int64 = 0, until: Int64 = 0, offset: Int16 = 0
    var valid = false

    @inline(__always)
    func lookup(_ micros: Int64) -> Int16? { valid && micros >= from && micros < until ? offset : nil }

    /// Only the span from the asked instant to the next transition is certain; earlier
    /// instants ask the zone again.
    mutating func store(from: Int64, until: Int64, offset: Int16) {
        self.from = from
        self.until = until
        self.offset = offset
        self.valid = true
    }
}

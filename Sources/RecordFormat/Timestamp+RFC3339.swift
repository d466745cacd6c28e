extension Timestamp {
    /// Why a text is not an RFC 3339 time.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The byte offset in the text where parsing failed.
        public let offset: Int
        /// What was wrong.
        public let reason: String
        public var description: String { reason }
    }

    /// Parses RFC 3339 text (`2026-11-20T07:00:00Z`, `2026-11-20T09:00:00.25+02:00`).
    public init(rfc3339 text: String) throws(ParseError) {
        var t = text
        let result = t.withUTF8 { (u: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, ParseError> in
            do throws(ParseError) { return .success(try Timestamp.parse(UnsafeRawBufferPointer(u))) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses RFC 3339 from UTF-8 bytes: date, `T`, time, up to 6 fractional digits,
    /// and `Z` or `±hh:mm`. Years outside 1970-2200 are refused.
    public static func parse(_ s: UnsafeRawBufferPointer) throws(ParseError) -> Timestamp {
        let n = s.count
        @inline(__always) func digits(_ at: Int, _ count: Int) throws(ParseError) -> Int64 {
            guard at + count <= n else {
                throw ParseError(
                    offset: min(at, n), reason: "time is cut short; expected RFC 3339 like 2026-11-20T07:00:00Z")
            }
            var v: Int64 = 0
            for i in at..<at + count {
                let c = s[i]
                guard c >= 0x30 && c <= 0x39 else {
                    throw ParseError(offset: i, reason: "expected a digit in the RFC 3339 time")
                }
                v = v * 10 + Int64(c - 0x30)
            }
            return v
        }
        @inline(__always) func expect(_ at: Int, _ chars: UInt8...) throws(ParseError) {
            guard at < n else {
                throw ParseError(offset: n, reason: "time is cut short; expected RFC 3339 like 2026-11-20T07:00:00Z")
            }
            guard chars.contains(s[at]) else {
                let want = chars.map { String(UnicodeScalar($0)) }.joined(separator: " or ")
                throw ParseError(offset: min(at, n), reason: "expected '\(want)' in the RFC 3339 time")
            }
        }
        let year = try digits(0, 4)
        try expect(4, UInt8(ascii: "-"))
        let month = try digits(5, 2)
        try expect(7, UInt8(ascii: "-"))
        let day = try digits(8, 2)
        try expect(10, UInt8(ascii: "T"), UInt8(ascii: "t"))
        let hour = try digits(11, 2)
        try expect(13, UInt8(ascii: ":"))
        let minute = try digits(14, 2)
        try expect(16, UInt8(ascii: ":"))
        let second = try digits(17, 2)
        guard (1970...2200).contains(year) else {
            throw ParseError(offset: 0, reason: "year \(year) is outside 1970-2200")
        }
        guard (1...12).contains(month) else { throw ParseError(offset: 5, reason: "month \(month) is not 01-12") }
        guard day >= 1 && day <= daysInMonth(year, month) else {
            throw ParseError(offset: 8, reason: "day \(day) does not exist in \(year)-\(month)")
        }
        guard hour < 24 else { throw ParseError(offset: 11, reason: "hour \(hour) is not 00-23") }
        guard minute < 60 else { throw ParseError(offset: 14, reason: "minute \(minute) is not 00-59") }
        guard second < 60 else { throw ParseError(offset: 17, reason: "second \(second) is not 00-59") }
        var i = 19
        var fraction: Int64 = 0
        if i < n && s[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n, s[i] >= 0x30, s[i] <= 0x39 { i += 1 }
            let count = i - start
            guard count >= 1 else {
                throw ParseError(offset: i, reason: "expected digits after '.' in the RFC 3339 time")
            }
            guard count <= 6 else {
                throw ParseError(
                    offset: start + 6,
                    reason: "fractional seconds finer than microseconds are not kept; give at most 6 digits")
            }
            fraction = try digits(start, count)
            for _ in count..<6 { fraction *= 10 }
        }
        guard i < n else { throw ParseError(offset: i, reason: "the time has no UTC offset; end it with Z or ±hh:mm") }
        var offset: Int64 = 0
        switch s[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = s[i] == UInt8(ascii: "-") ? -1 : 1
            let oh = try digits(i + 1, 2)
            try expect(i + 3, UInt8(ascii: ":"))
            let om = try digits(i + 4, 2)
            guard oh < 24, om < 60 else { throw ParseError(offset: i, reason: "UTC offset out of range") }
            offset = sign * (oh * 60 + om)
            i += 6
        default:
            throw ParseError(offset: i, reason: "expected Z or ±hh:mm after the time")
        }
        guard i == n else { throw ParseError(offset: i, reason: "unexpected text after the RFC 3339 time") }
        let days = daysFromCivil(year, month, day)
        let local = ((days * 24 + hour) * 60 + minute) * 60 + second
        let micros = (local - offset * 60) * 1_000_000 + fraction
        guard micros >= 0 && micros < Timestamp.limit.microseconds else {
            throw ParseError(offset: 0, reason: "the instant lies outside years 1970-2200")
        }
        return Timestamp(microseconds: micros, offsetMinutes: Int16(offset))
    }

    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The instants RFC 3339's four-digit years can write, a day inside each end so that an
    /// offset cannot take them out.
    static let writableRange =
        (daysFromCivil(0, 1, 2) * 86_400_000_000)...(daysFromCivil(9999, 12, 31) * 86_400_000_000 - 1)

    /// The RFC 3339 text in the timestamp's own offset (`Z` for zero), fractional
    /// seconds trimmed of trailing zeros.
    public var rfc3339: String { rfc3339(offsetMinutes: offsetMinutes) }

    /// The RFC 3339 text of this instant shown at another UTC offset.
    public func rfc3339(offsetMinutes offset: Int16) -> String {
        var out = [UInt8]()
        out.reserveCapacity(32)
        appendRFC3339(to: &out, offsetMinutes: offset)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the RFC 3339 text (in the timestamp's own offset) to a byte buffer.
    public func appendRFC3339(to out: inout [UInt8]) { appendRFC3339(to: &out, offsetMinutes: offsetMinutes) }

    /// Appends the RFC 3339 text of this instant at `offset` minutes from UTC.
    /// Validation keeps every time within 1970-2200; an instant past years 0-9999 (which only
    /// damaged storage could hold) is written at the nearest end of that range, never as text
    /// that is not a time.
    public func appendRFC3339(to out: inout [UInt8], offsetMinutes offset: Int16) {
        let local =
            min(max(microseconds, Timestamp.writableRange.lowerBound), Timestamp.writableRange.upperBound)
            + Int64(max(-1439, min(1439, Int(offset)))) * 60_000_000
        var days = local / 86_400_000_000
        var rem = local % 86_400_000_000
        if rem < 0 {
            rem += 86_400_000_000
            days -= 1
        }
        let (y, m, d) = Timestamp.civilFromDays(days)
        let secs = rem / 1_000_000
        let frac = rem % 1_000_000
        @inline(__always) func two(_ v: Int64) {
            out.append(UInt8(0x30 + v / 10))
            out.append(UInt8(0x30 + v % 10))
        }
        two(y / 100)
        two(y % 100)
        out.append(UInt8(ascii: "-"))
        two(m)
        out.append(UInt8(ascii: "-"))
        two(d)
        out.append(UInt8(ascii: "T"))
        two(secs / 3600)
        out.append(UInt8(ascii: ":"))
        two(secs / 60 % 60)
        out.append(UInt8(ascii: ":"))
        two(secs % 60)
        if frac != 0 {
            out.append(UInt8(ascii: "."))
            var f = frac
            var digits = 6
            while f % 10 == 0 {
                f /= 10
                digits -= 1
            }
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(0x30 + f / divisor % 10))
                divisor /= 10
            }
        }
        if offset == 0 {
            out.append(UInt8(ascii: "Z"))
        } else {
            out.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let a = Int64(abs(Int(offset)))
            two(a / 60)
            out.append(UInt8(ascii: ":"))
            two(a % 60)
        }
    }
}

import RecordFormat
import Testing

@Suite("RFC 3339 times")
struct TimestampTests {
    @Test("parses UTC, offsets and fractions to microseconds")
    func parses() throws {
        let t = try Timestamp(rfc3339: "2026-11-20T07:00:00Z")
        #expect(t.microseconds == 1_795_158_000_000_000)
        let p = try Timestamp(rfc3339: "2026-11-20T09:00:00.25+02:00")
        #expect(p.microseconds == t.microseconds + 250_000)
        #expect(p.offsetMinutes == 120)
        let n = try Timestamp(rfc3339: "2026-11-20T01:30:00.000001-05:30")
        #expect(n.microseconds == t.microseconds + 1)
    }

    @Test(
        "writes back with its offset, trimming fractional zeros",
        arguments: [
            "2026-11-20T07:00:00Z", "2026-11-20T09:00:00.25+02:00", "1970-01-01T00:00:00Z",
            "2200-12-31T23:59:59.999999Z", "2024-02-29T12:00:00.1-09:30",
        ])
    func roundTrips(text: String) throws {
        #expect(try Timestamp(rfc3339: text).rfc3339 == text)
    }

    @Test("normalises +00:00 to Z and lower-case separators")
    func normalises() throws {
        #expect(try Timestamp(rfc3339: "2026-11-20t07:00:00+00:00").rfc3339 == "2026-11-20T07:00:00Z")
        #expect(try Timestamp(rfc3339: "2026-11-20T07:00:00.500z").rfc3339 == "2026-11-20T07:00:00.5Z")
    }

    @Test(
        "rejects what is not RFC 3339 or lies outside 1970-2200",
        arguments: [
            "2026-11-20", "2026-11-20T07:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
            "1969-12-31T23:59:59Z", "2201-01-01T00:00:00Z", "2026-11-20T24:00:00Z", "2026-11-20T07:00:60Z",
            "2026-11-20T07:00:00.1234567Z", "2026-11-20 07:00:00Z", "2026-11-20T07:00:00+0200", "x",
        ])
    func rejects(text: String) {
        #expect(throws: Timestamp.ParseError.self) { try Timestamp(rfc3339: text) }
    }

    @Test("civil date conversion agrees both ways over four centuries")
    func civilRoundTrip() {
        for days in stride(from: Int64(0), to: 84_000, by: 37) {
            let (y, m, d) = Timestamp.civilFromDays(days)
            #expect(Timestamp.daysFromCivil(y, m, d) == days)
        }
    }
}

import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("Canonical form")
struct CanonicalFormTests {
    func canonical(_ line: String) throws -> String {
        var d = EventDecoder()
        return try d.decode(line).canonicalJSON
    }

    @Test("envelope keys first, fields in contract order, unknown keys last in input order")
    func keyOrder() throws {
        let line =
            #"{"zz":1,"position":1,"widget":{"configuration":null,"family":"systemSmall","kind":"K","app":"a","instance":"w"},"stack":"s","time":"2026-03-02T06:00:02Z","type":"stack.widgetAdded","aa":[true]}"#
        #expect(
            try canonical(line)
                == #"{"type":"stack.widgetAdded","time":"2026-03-02T06:00:02Z","stack":"s","widget":{"instance":"w","app":"a","kind":"K","family":"systemSmall","configuration":null},"position":1,"zz":1,"aa":[true]}"#
        )
    }

    @Test("defaults are omitted: device, toggles, duration 0, policy atEnd, role action")
    func defaults() throws {
        #expect(
            try canonical(
                #"{"type":"stack.created","time":"2026-03-02T06:00:00Z","device":"default","stack":"s","platform":"iOS","family":"f","smartRotate":true,"widgetSuggestions":true}"#
            )
                == #"{"type":"stack.created","time":"2026-03-02T06:00:00Z","stack":"s","platform":"iOS","family":"f"}"#)
        #expect(
            try canonical(
                #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":1,"duration":0}}],"policy":"atEnd"}"#
            )
                == #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":1}}]}"#
        )
        #expect(
            try canonical(
                #"{"type":"shortcuts.relevantSet","time":"2026-03-02T06:00:00Z","app":"a","shortcuts":[{"widgetKind":"k","role":"action","intent":null,"relevanceProviders":[]}]}"#
            )
                == #"{"type":"shortcuts.relevantSet","time":"2026-03-02T06:00:00Z","app":"a","shortcuts":[{"widgetKind":"k","intent":null,"relevanceProviders":[]}]}"#
        )
    }

    @Test(
        "numbers: shortest round trip, integral ones without a decimal point",
        arguments: [
            ("10.0", "10"), ("52.6", "52.6"), ("1e2", "100"), ("-0.5", "-0.5"), ("0.1", "0.1"), ("1E-7", "1e-07"),
            ("16.290", "16.29"),
        ])
    func numbers(input: String, output: String) throws {
        let line =
            #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":\#(input)}}]}"#
        #expect(try canonical(line).contains(#"{"score":\#(output)}"#))
    }

    @Test(
        "integral numbers past 2^53 are written without a decimal point",
        arguments: [
            ("9007199254740992", "9007199254740992"),
            ("123456789012345678901234567890", "123456789012345680000000000000"),
            ("1e16", "1e+16"), ("-9007199254740994.0", "-9007199254740994"), ("1.5e300", "15e+299"),
        ])
    func largeIntegralScores(input: String, output: String) throws {
        let line =
            #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":\#(input)}}]}"#
        #expect(try canonical(line).contains(#"{"score":\#(output)}"#))
    }

    @Test(
        "numbers in unknown fields and intent parameters keep their exact value",
        arguments: [
            ("9007199254740993", "9007199254740993"),
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("1234567890123456789012e3", "1234567890123456789012000"), ("1e400", "1e+400"),
            ("0.10000000000000000000001", "0.10000000000000000000001"),
            ("-1.000000000000000000001E-9", "-1.000000000000000000001e-9"), ("1e-400", "1e-400"),
            ("9007199254740992", "9007199254740992"), ("10.0", "10"), ("52.60", "52.6"), ("1E2", "100"), ("-0", "-0"),
            ("-0.000e7", "-0"), ("0e-3", "0"),
            // At the limit of the exponent, either way.
            ("1e1000000000", "1e+1000000000"), ("10e999999999", "1e+1000000000"), ("-1E-1000000000", "-1e-1000000000"),
            ("0.1e-999999999", "1e-1000000000"), ("25e-1000000000", "2.5e-999999999"),
        ])
    func exactUnknownNumbers(input: String, output: String) throws {
        let line =
            #"{"type":"intent.donated","time":"2026-03-02T06:00:00Z","app":"a","api":"appIntents","intent":{"intent":"I","parameters":{"n":\#(input)}},"extra":[\#(input)]}"#
        let text = try canonical(line)
        #expect(text.contains(#""parameters":{"n":\#(output)}"#), "\(text)")
        #expect(text.hasSuffix(#","extra":[\#(output)]}"#), "\(text)")
        // The canonical text is a fixed point, and it decodes to an equal event.
        #expect(try canonical(text) == text)
    }

    @Test("two numbers a Double cannot tell apart are different values")
    func distinctBeyondDouble() throws {
        var d = EventDecoder()
        let a = try d.decode(
            #"{"type":"app.foreground","time":"2026-03-02T06:00:00Z","app":"a","note":9007199254740993}"#)
        let b = try d.decode(
            #"{"type":"app.foreground","time":"2026-03-02T06:00:00Z","app":"a","note":9007199254740992}"#)
        #expect(a != b)
        #expect(a.canonicalJSON != b.canonicalJSON)
        let same = try d.decode(
            #"{"type":"app.foreground","time":"2026-03-02T06:00:00Z","app":"a","note":9007199254740993.000}"#)
        #expect(a == same)
    }

    @Test("strings: escapes resolved, only what must be escaped is")
    func strings() throws {
        let line =
            #"{"type":"stack.scrolled","time":"2026-03-02T06:00:00Z","stack":"caf\u00e9 \"q\" \/ \n","instance":"\ud83c\udf89"}"#
        #expect(
            try canonical(line)
                == #"{"type":"stack.scrolled","time":"2026-03-02T06:00:00Z","stack":"café \"q\" / \n","instance":"🎉"}"#)
    }

    @Test("a string's escapes follow the byte-by-byte rule at every length and position")
    func escapesAnywhere() {
        let pieces = [
            "a", "Z", "0", " ", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}",
            "é", "🎉",
        ]
        var random = SplitMix64(seed: 3)
        for _ in 0..<3000 {
            let s = (0..<Int.random(in: 0...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            var expected: [UInt8] = [0x22]
            for byte in s.utf8 {
                switch byte {
                case 0x22: expected += Array(#"\""#.utf8)
                case 0x5C: expected += Array(#"\\"#.utf8)
                case 0x0A: expected += Array(#"\n"#.utf8)
                case 0x0D: expected += Array(#"\r"#.utf8)
                case 0x09: expected += Array(#"\t"#.utf8)
                case 0x08: expected += Array(#"\b"#.utf8)
                case 0x0C: expected += Array(#"\f"#.utf8)
                case 0..<0x20: expected += Array(#"\u00"#.utf8) + Array(String(format2: byte).utf8)
                default: expected.append(byte)
                }
            }
            expected.append(0x22)
            var w = CanonicalWriter()
            w.string(s)
            #expect(w.bytes == expected, "\(s.debugDescription)")
        }
    }

    @Test("canonical form is a fixed point over random valid events")
    func fixedPoint() throws {
        var random = RandomEvents(seed: 7)
        var decoder = EventDecoder()
        for i in 0..<2000 {
            let line = random.line(seqHint: i)
            let event = try decoder.decode(line)
            let once = event.canonicalJSON
            let again = try decoder.decode(once)
            #expect(again == event, "\(line)")
            #expect(again.canonicalJSON == once)
        }
    }

    @Test("every scenario in the repository decodes, and its canonical form decodes to the same event and text")
    func scenarios() throws {
        var lines = 0
        for name in ["cards-day", "calendar-suggestion", "watch-workout"] {
            let text = try String(contentsOfFile: Fixtures.path("scenarios/\(name).ndjson"), encoding: .utf8)
            var decoder = EventDecoder()
            for line in text.split(separator: "\n") {
                let event = try decoder.decode(String(line))
                let canonical = event.canonicalJSON
                let again = try decoder.decode(canonical)
                #expect(again == event, "\(name): \(line)")
                #expect(again.canonicalJSON == canonical)
                lines += 1
            }
        }
        #expect(lines == 17)
    }
}

@Suite("Canonical numbers")
struct CanonicalNumberTests {
    func written(_ d: Double) -> String {
        var w = CanonicalWriter()
        w.number(d)
        return w.text
    }

    /// What the canonical form is defined as: integers below 2^53 as integers; other
    /// integral values as the shortest round-trip digits without a decimal point (in full
    /// when they end in at most 21 zeros, else with an exponent); the rest as Swift's
    /// shortest round-trip description.
    func reference(_ d: Double) -> String {
        if abs(d) < 9_007_199_254_740_992 && Double(Int64(d)) == d { return String(Int64(d)) }
        let description = d.description
        guard d.isFinite, d == d.rounded(), description.contains(".") else { return description }
        // The description's digits and the power of ten after the last one.
        let mantissa = description.split(separator: "e").first.map(String.init) ?? description
        let power = description.contains("e") ? Int(description.split(separator: "e")[1])! : 0
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0].drop { $0 == "-" }) + (parts[1] == "0" ? "" : String(parts[1]))
        var zeros = power - (parts[1] == "0" ? 0 : parts[1].count)
        while digits.hasSuffix("0") && digits.count > 1 {
            digits.removeLast()
            zeros += 1
        }
        return (d < 0 ? "-" : "")
            + (zeros <= 21 ? digits + String(repeating: "0", count: zeros) : digits + "e+\(zeros)")
    }

    @Test("written numbers equal the shortest round-trip form, over decimals, near-decimals and edge values")
    func matchesDescription() {
        var rng = SplitMix64(seed: 42)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 0.1 + 0.2, 1e-4, 5e-5, 0.0001, 0.00015, 99_999_999_999.9999, 1e11, 1e11 + 0.5,
            123_456_789.1234, 9_007_199_254_740_994, -1e300, 1e-300, .infinity, -.infinity, .leastNonzeroMagnitude,
            Double(Int64.max), Double(Int64.min), 52.6, 16.29, 0.2384, 4_999.99,
        ]
        for _ in 0..<200_000 {
            let r = rng.next()
            let places = Double([1, 10, 100, 1_000, 10_000, 100_000][Int(r % 6)])
            let magnitude = Double([1, 100, 10_000, 1e8, 1e12][Int((r >> 8) % 5)])
            let n = (Double(rng.next() % 2_000_000_001) - 1e9) / 1e9 * magnitude
            values.append((n * places).rounded() / places)
            values.append(Double(bitPattern: rng.next()))
            values.append(n)
        }
        var mismatches = [String]()
        for d in values where !d.isNaN && written(d) != reference(d) {
            mismatches.append("\(d.bitPattern): \(written(d)) against \(reference(d))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}

extension String {
    /// Two lowercase hex digits.
    fileprivate init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

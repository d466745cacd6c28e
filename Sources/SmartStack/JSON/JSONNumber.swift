/// A JSON number kept exactly as given, in canonical text.
///
/// A number a `Double` holds exactly is written in the canonical form of every number
/// (shortest round-trip, integral ones without a decimal point). A number a `Double`
/// cannot hold (`9007199254740993`, thirty digits) keeps its exact decimal value, written
/// the same way: integral values without a decimal point, in full when they end in at
/// most 21 zeros and with an exponent past that (`1e+400`); fractions in plain decimals
/// down to a millionth and with an exponent below. Two numbers are equal when their
/// values are.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The canonical JSON text.
    public let text: String

    /// The nearest `Double`.
    public var value: Double { Double(text) ?? .nan }

    public var description: String { text }

    /// The number `d` (finite).
    public init(_ d: Double) {
        // A negative zero is its own value here, as given: kept as `-0`.
        if d == 0 && d.sign == .minus {
            text = "-0"
            return
        }
        var bytes = [UInt8]()
        CanonicalWriter.appendNumber(d, to: &bytes)
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The number a JSON literal spells, given its nearest `Double` `d` (infinite when the
    /// literal is past a `Double`'s range); nil when the literal's value is past
    /// `ExactDecimal.exponentLimit`.
    init?(literal: UnsafeRawBufferPointer, nearest d: Double) {
        let shortest = d.isFinite ? JSONNumber(d) : nil
        if let shortest, shortest.text.utf8.elementsEqual(literal) {
            self = shortest
            return
        }
        guard let given = ExactDecimal(literal) else { return nil }
        if let shortest, ExactDecimal(Array(shortest.text.utf8)) == given {
            self = shortest
            return
        }
        text = given.canonicalText
    }
}

/// A decimal value as sign, significant digits (no leading or trailing zeros) and a power
/// of ten: `-1.250e2` is (true, "125", 0); zero is (false, "", 0).
struct ExactDecimal: Equatable {
    /// The largest power of ten a value may have, either way, in its canonical text
    /// (`1e+1000000000`, `1e-1000000000`): past it a number is refused, not rounded.
    static let exponentLimit = 1_000_000_000

    var negative: Bool
    var digits: [UInt8]
    var exponent: Int

    /// Parses JSON number text; nil if it is not one, or if its value is past
    /// `exponentLimit`.
    init?<Bytes: Collection>(_ text: Bytes) where Bytes.Element == UInt8 {
        var i = text.startIndex
        negative = false
        digits = []
        exponent = 0
        if i < text.endIndex, text[i] == UInt8(ascii: "-") {
            negative = true
            i = text.index(after: i)
        }
        var sawDigit = false
        while i < text.endIndex, (0x30...0x39).contains(text[i]) {
            digits.append(text[i])
            sawDigit = true
            i = text.index(after: i)
        }
        guard sawDigit else { return nil }
        if i < text.endIndex, text[i] == UInt8(ascii: ".") {
            i = text.index(after: i)
            while i < text.endIndex, (0x30...0x39).contains(text[i]) {
                digits.append(text[i])
                exponent -= 1
                i = text.index(after: i)
            }
        }
        if i < text.endIndex, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            i = text.index(after: i)
            var sign = 1
            if i < text.endIndex, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
                if text[i] == UInt8(ascii: "-") { sign = -1 }
                i = text.index(after: i)
            }
            var e = 0
            var sawExponentDigit = false
            while i < text.endIndex, (0x30...0x39).contains(text[i]) {
                // Bounded so that it cannot overflow: anything near the bound is refused below.
                e = min(e * 10 + Int(text[i] - 0x30), 4 * ExactDecimal.exponentLimit)
                sawExponentDigit = true
                i = text.index(after: i)
            }
            guard sawExponentDigit else { return nil }
            exponent += sign * e
        }
        guard i == text.endIndex else { return nil }
        let lead = digits.firstIndex { $0 != UInt8(ascii: "0") } ?? digits.endIndex
        digits.removeFirst(lead)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            negative = false
            exponent = 0
        }
        // The exponents the canonical text writes: `e+exponent`, or `e-(1 - point)`.
        let point = digits.count + exponent
        guard exponent <= ExactDecimal.exponentLimit, 1 - point <= ExactDecimal.exponentLimit else { return nil }
    }

    /// The canonical text of the value (see `JSONNumber`).
    var canonicalText: String {
        if digits.isEmpty { return "0" }
        var out = negative ? "-" : ""
        let d = String(decoding: digits, as: UTF8.self)
        let point = digits.count + exponent // digits before the decimal point
        if exponent >= 0 {
            out += exponent <= 21 ? d + String(repeating: "0", count: exponent) : d + "e+\(exponent)"
        } else if point > 0 {
            out += d.prefix(point) + "." + d.dropFirst(point)
        } else if point > -6 {
            out += "0." + String(repeating: "0", count: -point) + d
        } else {
            out += d.prefix(1) + (digits.count > 1 ? "." + d.dropFirst() : "") + "e-\(1 - point)"
        }
        return out
    }
}

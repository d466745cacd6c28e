public import RecordFormat

/// Writes canonical JSON: no insignificant whitespace, numbers in shortest round-trip
/// form (integral ones without a decimal point), strings with minimal escapes.
public struct CanonicalWriter {
    /// The bytes written so far.
    public var bytes: [UInt8]
    private var needsComma: [Bool] = []

    /// Creates a writer.
    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if pendingKey {
            pendingKey = false
            return
        }
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    /// Opens an object (as a value).
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Closes an object.
    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens an array (as a value).
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Closes an array.
    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a key; the next call writes its value.
    public mutating func key(_ k: String) {
        separate()
        appendQuoted(k)
        bytes.append(UInt8(ascii: ":"))
        pendingKey = true
    }

    private var pendingKey = false

    /// Writes a key that needs no escaping (a field name of the contract); the next call
    /// writes its value.
    mutating func key(_ k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        pendingKey = true
    }

    private mutating func valueStart() { separate() }

    /// Writes a string value.
    public mutating func string(_ s: String) {
        valueStart()
        appendQuoted(s)
    }

    /// Writes a number value in canonical form.
    public mutating func number(_ d: Double) {
        valueStart()
        CanonicalWriter.appendNumber(d, to: &bytes)
    }

    /// Writes an integer value.
    public mutating func integer(_ v: Int) {
        valueStart()
        CanonicalWriter.appendInteger(Int64(v), to: &bytes)
    }

    /// Writes true or false.
    public mutating func bool(_ b: Bool) {
        valueStart()
        for c in (b ? "true" : "false").utf8 { bytes.append(c) }
    }

    /// Writes null.
    public mutating func null() {
        valueStart()
        for c in "null".utf8 { bytes.append(c) }
    }

    /// Writes a time as an RFC 3339 string with its own offset.
    public mutating func time(_ t: Timestamp) {
        valueStart()
        bytes.append(UInt8(ascii: "\""))
        t.appendRFC3339(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes JSON text that is already canonical, as a value.
    public mutating func raw(_ json: String) {
        valueStart()
        bytes.append(contentsOf: Array(json.utf8))
    }

    /// Writes canonical members text (`"k":v,...`) into the open object.
    public mutating func rawMembers(_ members: String) {
        guard !members.isEmpty else { return }
        separate()
        bytes.append(contentsOf: Array(members.utf8))
    }

    /// Writes a `JSONValue`, keeping object key order.
    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n):
            valueStart()
            bytes.append(contentsOf: Array(n.text.utf8))
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for m in members {
                key(m.key)
                value(m.value)
            }
            endObject()
        }
    }

    /// Writes members of an open object.
    public mutating func members(_ ms: [JSONMember]) {
        for m in ms {
            key(m.key)
            value(m.value)
        }
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Runs of bytes that need no escape are copied at once; eight bytes are
            // checked at a time.
            let raw = UnsafeRawBufferPointer(utf8)
            var run = 0
            var i = 0
            while i < raw.count {
                if i + 8 <= raw.count,
                    !CanonicalWriter.needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                {
                    i += 8
                    continue
                }
                let c = raw[i]
                if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                    if run < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i])) }
                    appendEscaped(c)
                    run = i + 1
                }
                i += 1
            }
            if run < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How many bytes `s` takes between its quotes as this writer escapes it: what a
    /// parser's limit on a string's length counts.
    static func escapedByteCount(_ s: String) -> Int {
        var w = CanonicalWriter(capacity: s.utf8.count + 16)
        w.string(s)
        return w.bytes.count - 2
    }

    /// Whether any of eight bytes is a control character, a quote or a backslash.
    @inline(__always) static func needsEscape(_ x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (x &- ones &* 0x20) & ~x & highs
        let q = x ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q & highs
        let b = x ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b & highs
        return (control | quote | backslash) != 0
    }

    /// Appends the escape of a quote, a backslash or a control character.
    private mutating func appendEscaped(_ c: UInt8) {
        bytes.append(0x5C)
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(c)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            bytes.append(contentsOf: Array("u00".utf8))
            bytes.append(CanonicalWriter.hex[Int(c >> 4)])
            bytes.append(CanonicalWriter.hex[Int(c & 15)])
        }
    }

    /// Appends a number in canonical form: integral values below 2^53 as integers,
    /// others in Swift's shortest round-trip form.
    static func appendNumber(_ d: Double, to out: inout [UInt8]) {
        if abs(d) < 9_007_199_254_740_992, Double(Int64(d)) == d {
            appendInteger(Int64(d), to: &out)
        } else if !appendShortDecimal(d, to: &out) {
            let shortest = d.description
            // An integral value past 2^53 is written without a decimal point, as every
            // integral number is (9007199254740992, 12345678901234568e+13).
            if d == d.rounded(), shortest.contains("."), let exact = ExactDecimal(Array(shortest.utf8)) {
                out.append(contentsOf: Array(exact.canonicalText.utf8))
            } else {
                out.append(contentsOf: Array(shortest.utf8))
            }
        }
    }

    /// Appends an integer's decimal digits.
    static func appendInteger(_ v: Int64, to out: inout [UInt8]) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = v.magnitude
        var digits = (UInt64(0), UInt64(0), UInt64(0)) // room for the 20 digits of any UInt64
        withUnsafeMutableBytes(of: &digits) { buffer in
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[i...])
        }
    }

    private static let tens: [Double] = [10, 100, 1_000, 10_000]

    /// Appends `d` when it is a decimal of at most four places below 10^11 (a score, a
    /// normalised score), as Swift's shortest round-trip form writes it: the fewest
    /// places that give back exactly `d`. Returns false, writing nothing, otherwise.
    static func appendShortDecimal(_ d: Double, to out: inout [UInt8]) -> Bool {
        guard abs(d) < 1e11 else { return false }
        for tried in 1...4 {
            let scaled = d * tens[tried - 1]
            guard scaled == scaled.rounded(), Double(Int64(scaled)) / tens[tried - 1] == d else { continue }
            // Scaling rounds: a value may first come out whole one place further than it
            // needs (1108.09 × 1000), and the trailing zero goes.
            var (n, places) = (Int64(scaled), tried)
            while n % 10 == 0 && places > 1 { (n, places) = (n / 10, places - 1) }
            if n < 0 { out.append(UInt8(ascii: "-")) }
            var unit: UInt64 = 1
            for _ in 0..<places { unit *= 10 }
            appendInteger(Int64(n.magnitude / unit), to: &out)
            out.append(UInt8(ascii: "."))
            var fraction = n.magnitude % unit
            for _ in 0..<places {
                unit /= 10
                out.append(UInt8(ascii: "0") + UInt8(fraction / unit))
                fraction %= unit
            }
            return true
        }
        return false
    }

    /// A value's canonical JSON text.
    public static func text(of v: JSONValue) -> String {
        var w = CanonicalWriter(capacity: 64)
        w.value(v)
        return w.text
    }
}

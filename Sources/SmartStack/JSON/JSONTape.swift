/// A flat list of the tokens of one JSON text, made without allocating per value.
///
/// Containers record where their subtree ends, so a reader can skip a value in O(1).
/// Strings keep their byte range (without quotes) and whether they contain escapes.
struct JSONTape {
    enum Kind: UInt8 { case object, array, string, number, `true`, `false`, null }

    struct Token {
        var kind: Kind
        var escaped: Bool = false
        /// Byte range of the value (for strings, the content between the quotes).
        var start: Int32
        var end: Int32
        /// For containers: the index just past the subtree; members or elements count.
        var next: Int32 = 0
        var count: Int32 = 0
    }

    /// Token storage, reused from line to line.
    final class Storage {
        var base: UnsafeMutablePointer<Token>
        var capacity: Int
        var count = 0

        init(capacity: Int = 256) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    /// Appends tokens to a `Storage` without Array's checks; grows it when full.
    struct Buffer {
        var base: UnsafeMutablePointer<Token>
        var capacity: Int
        var count = 0

        @inline(__always) mutating func append(_ t: Token) {
            if count == capacity { grow() }
            (base + count).initialize(to: t)
            count += 1
        }

        @inline(__always) subscript(i: Int) -> Token {
            get { base[i] }
            nonmutating set { base[i] = newValue }
        }

        mutating func grow() {
            let bigger = UnsafeMutablePointer<Token>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
    }

    let storage = Storage()

    /// The tokens of the last parse.
    var tokens: UnsafeBufferPointer<Token> { UnsafeBufferPointer(start: storage.base, count: storage.count) }

    /// Runs `body` with a reader over the tokens and the text they were made from.
    func withReader<T, E: Error>(
        _ text: UnsafeRawBufferPointer, cache: StringCache? = nil,
        _ body: (TapeReader) throws(E) -> T
    ) throws(E) -> T {
        let reader = TapeReader(tokens: tokens, text: text, cache: cache.map { Unmanaged.passUnretained($0) })
        defer {
            withExtendedLifetime(cache) {}
            withExtendedLifetime(storage) {}
        }
        return try body(reader)
    }

    /// The limits of the event contract.
    struct Limits {
        var maximumDepth = 16
        var maximumStringBytes = 4096
    }

    /// A syntax error at a byte offset.
    struct SyntaxError: Error {
        var offset: Int
        var message: String
    }

    /// Tokenises `text`, which must hold exactly one JSON value (whitespace around it allowed).
    func parse(_ text: UnsafeRawBufferPointer, limits: Limits = Limits()) throws(SyntaxError) {
        var buffer = Buffer(base: storage.base, capacity: storage.capacity)
        defer {
            storage.base = buffer.base
            storage.capacity = buffer.capacity
            storage.count = buffer.count
        }
        var p = Parser(s: text, limits: limits)
        p.skipSpace()
        try p.value(into: &buffer, depth: 0)
        p.skipSpace()
        if p.i < text.count { throw SyntaxError(offset: p.i, message: "unexpected text after the JSON value") }
    }

    private struct Parser {
        let s: UnsafeRawBufferPointer
        let limits: Limits
        var i = 0

        @inline(__always) mutating func skipSpace() {
            while i < s.count {
                let c = s[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }

        mutating func value(into t: inout Buffer, depth: Int) throws(SyntaxError) {
            guard i < s.count else { throw SyntaxError(offset: i, message: "the line ends where a value is expected") }
            switch s[i] {
            case UInt8(ascii: "{"): try object(into: &t, depth: depth + 1)
            case UInt8(ascii: "["): try array(into: &t, depth: depth + 1)
            case UInt8(ascii: "\""): try string(into: &t)
            case UInt8(ascii: "t"): try literal("true", .true, into: &t)
            case UInt8(ascii: "f"): try literal("false", .false, into: &t)
            case UInt8(ascii: "n"): try literal("null", .null, into: &t)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(into: &t)
            default:
                throw SyntaxError(
                    offset: i,
                    message: "unexpected character '\(Character(UnicodeScalar(s[i])))'; expected a JSON value")
            }
        }

        mutating func literal(_ word: StaticString, _ kind: Kind, into t: inout Buffer) throws(SyntaxError) {
            let n = word.utf8CodeUnitCount
            guard i + n <= s.count else { throw SyntaxError(offset: i, message: "expected '\(word)'") }
            for k in 0..<n where s[i + k] != word.utf8Start[k] {
                throw SyntaxError(offset: i + k, message: "expected '\(word)'")
            }
            t.append(Token(kind: kind, start: Int32(i), end: Int32(i + n)))
            i += n
        }

        mutating func object(into t: inout Buffer, depth: Int) throws(SyntaxError) {
            guard depth <= limits.maximumDepth else {
                throw SyntaxError(offset: i, message: "JSON nesting exceeds the limit of \(limits.maximumDepth) levels")
            }
            let me = t.count
            t.append(Token(kind: .object, start: Int32(i), end: 0))
            i += 1
            skipSpace()
            var count: Int32 = 0
            if i < s.count && s[i] == UInt8(ascii: "}") {
                i += 1
            } else {
                while true {
                    skipSpace()
                    guard i < s.count, s[i] == UInt8(ascii: "\"") else {
                        throw SyntaxError(offset: i, message: "expected a quoted key")
                    }
                    try string(into: &t)
                    skipSpace()
                    guard i < s.count, s[i] == UInt8(ascii: ":") else {
                        throw SyntaxError(offset: i, message: "expected ':' after the key")
                    }
                    i += 1
                    skipSpace()
                    try value(into: &t, depth: depth)
                    count += 1
                    skipSpace()
                    guard i < s.count else {
                        throw SyntaxError(offset: i, message: "the line ends inside an object; expected '}'")
                    }
                    if s[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    if s[i] == UInt8(ascii: "}") {
                        i += 1
                        break
                    }
                    throw SyntaxError(offset: i, message: "expected ',' or '}' in the object")
                }
            }
            t[me].end = Int32(i)
            t[me].next = Int32(t.count)
            t[me].count = count
        }

        mutating func array(into t: inout Buffer, depth: Int) throws(SyntaxError) {
            guard depth <= limits.maximumDepth else {
                throw SyntaxError(offset: i, message: "JSON nesting exceeds the limit of \(limits.maximumDepth) levels")
            }
            let me = t.count
            t.append(Token(kind: .array, start: Int32(i), end: 0))
            i += 1
            skipSpace()
            var count: Int32 = 0
            if i < s.count && s[i] == UInt8(ascii: "]") {
                i += 1
            } else {
                while true {
                    skipSpace()
                    try value(into: &t, depth: depth)
                    count += 1
                    skipSpace()
                    guard i < s.count else {
                        throw SyntaxError(offset: i, message: "the line ends inside an array; expected ']'")
                    }
                    if s[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    if s[i] == UInt8(ascii: "]") {
                        i += 1
                        break
                    }
                    throw SyntaxError(offset: i, message: "expected ',' or ']' in the array")
                }
            }
            t[me].end = Int32(i)
            t[me].next = Int32(t.count)
            t[me].count = count
        }

        mutating func string(into t: inout Buffer) throws(SyntaxError) {
            let open = i
            i += 1
            let start = i
            var escaped = false
            // Skip 8 bytes at a time while none is a quote, a backslash or a control character.
            while i + 8 <= s.count {
                let w = s.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if Parser.hasSpecialByte(w) { break }
                i += 8
            }
            while true {
                guard i < s.count else { throw SyntaxError(offset: open, message: "unterminated string") }
                let c = s[i]
                if c == UInt8(ascii: "\"") { break }
                if c == UInt8(ascii: "\\") {
                    escaped = true
                    i += 2
                    continue
                }
                if c < 0x20 { throw SyntaxError(offset: i, message: "control character in a string; escape it") }
                i += 1
            }
            if i - start > limits.maximumStringBytes {
                throw SyntaxError(
                    offset: start, message: "string exceeds the limit of \(limits.maximumStringBytes) bytes")
            }
            t.append(Token(kind: .string, escaped: escaped, start: Int32(start), end: Int32(i)))
            i += 1
        }

        /// Whether any byte of `w` is `"`, `\\` or below 0x20 (bit tricks on a word).
        @inline(__always) static func hasSpecialByte(_ w: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
            let quote = zeroByte(w ^ (ones &* 0x22))
            let backslash = zeroByte(w ^ (ones &* 0x5C))
            let control = (w &- ones &* 0x20) & ~w & highs
            return (quote | backslash | control) != 0
        }

        mutating func number(into t: inout Buffer) throws(SyntaxError) {
            let start = i
            if s[i] == UInt8(ascii: "-") { i += 1 }
            func digits(_ p: inout Parser) -> Int {
                let b = p.i
                while p.i < p.s.count, p.s[p.i] >= 0x30, p.s[p.i] <= 0x39 { p.i += 1 }
                return p.i - b
            }
            let intStart = i
            let n = digits(&self)
            guard n > 0 else { throw SyntaxError(offset: i, message: "expected digits in the number") }
            if n > 1 && s[intStart] == UInt8(ascii: "0") {
                throw SyntaxError(offset: intStart, message: "numbers may not have leading zeros")
            }
            if i < s.count && s[i] == UInt8(ascii: ".") {
                i += 1
                guard digits(&self) > 0 else {
                    throw SyntaxError(offset: i, message: "expected digits after the decimal point")
                }
            }
            if i < s.count && (s[i] == UInt8(ascii: "e") || s[i] == UInt8(ascii: "E")) {
                i += 1
                if i < s.count && (s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-")) { i += 1 }
                guard digits(&self) > 0 else {
                    throw SyntaxError(offset: i, message: "expected digits in the exponent")
                }
            }
            t.append(Token(kind: .number, start: Int32(start), end: Int32(i)))
        }
    }
}

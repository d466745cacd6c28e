#if canImport(Glibc)
    import Glibc
#endif

/// Reads typed values out of a tape over the bytes it was made from.
struct TapeReader {
    /// The tape's tokens; valid while the tape is neither changed nor released.
    let tokens: UnsafeBufferPointer<JSONTape.Token>
    let text: UnsafeRawBufferPointer
    /// Shared strings for repeated values; not retained (the decoder owns it).
    var cache: Unmanaged<StringCache>?

    @inline(__always) func token(_ i: Int) -> JSONTape.Token { tokens[i] }

    /// The raw bytes of a string token (between the quotes).
    @inline(__always) func rawString(_ i: Int) -> UnsafeRawBufferPointer {
        let t = tokens[i]
        return UnsafeRawBufferPointer(rebasing: text[Int(t.start)..<Int(t.end)])
    }

    /// The text of a number token.
    @inline(__always) func rawNumber(_ i: Int) -> UnsafeRawBufferPointer { rawString(i) }

    /// The path of a token from the root, e.g. `entries[1].relevance.score`.
    func path(of target: Int) -> String {
        var path = ""
        var current = 0
        while current != target {
            let t = tokens[current]
            guard t.kind == .object || t.kind == .array, target < Int(t.next) else { break }
            var j = current + 1
            var element = 0
            var found = false
            while j < Int(t.next) {
                let valueIndex = t.kind == .object ? j + 1 : j
                let end = skip(valueIndex)
                if target == j && t.kind == .object {
                    return path.isEmpty ? (string(j) ?? "?") : path + "." + (string(j) ?? "?")
                }
                if target >= valueIndex && target < end {
                    if t.kind == .object {
                        let key = string(j) ?? "?"
                        path = path.isEmpty ? key : path + "." + key
                    } else {
                        path += "[\(element)]"
                    }
                    current = valueIndex
                    found = true
                    break
                }
                j = end
                element += 1
            }
            if !found { break }
        }
        return path
    }

    /// The string value of a string token, with escapes resolved; nil for invalid UTF-8
    /// or a bad escape.
    func string(_ i: Int) -> String? {
        let t = tokens[i]
        let raw = UnsafeRawBufferPointer(rebasing: text[Int(t.start)..<Int(t.end)])
        if !t.escaped {
            if let cache { return cache.takeUnretainedValue().string(raw) }
            return String(validatingUTF8Bytes: raw)
        }
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var k = 0
        while k < raw.count {
            let c = raw[k]
            if c != UInt8(ascii: "\\") {
                out.append(c)
                k += 1
                continue
            }
            guard k + 1 < raw.count else { return nil }
            let e = raw[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4(raw, k) else { return nil }
                k += 4
                if (0xD800..<0xDC00).contains(code) {
                    guard k + 6 <= raw.count, raw[k] == UInt8(ascii: "\\"), raw[k + 1] == UInt8(ascii: "u"),
                        let low = hex4(raw, k + 2), (0xDC00..<0xE000).contains(low)
                    else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                } else if (0xDC00..<0xE000).contains(code) {
                    return nil
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                return nil
            }
        }
        return out.withUnsafeBytes { String(validatingUTF8Bytes: $0) }
    }

    private func hex4(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
        guard at + 4 <= raw.count else { return nil }
        var v: UInt32 = 0
        for j in at..<at + 4 {
            let c = raw[j]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    /// The value of a number token (finite; JSON has no NaN or infinity literals, but a
    /// huge exponent overflows to infinity, which the caller rejects).
    func number(_ i: Int) -> Double {
        let t = tokens[i]
        let start = Int(t.start)
        let end = Int(t.end)
        var k = start
        var negative = false
        if text[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        while k < end, text[k] >= 0x30, text[k] <= 0x39 {
            mantissa = mantissa &* 10 &+ Int64(text[k] - 0x30)
            digits += 1
            k += 1
        }
        var scale = 0
        if k < end && text[k] == UInt8(ascii: ".") {
            k += 1
            while k < end, text[k] >= 0x30, text[k] <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(text[k] - 0x30)
                digits += 1
                scale += 1
                k += 1
            }
        }
        if k == end && digits <= 15 && scale <= 22 {
            let v = scale == 0 ? Double(mantissa) : Double(mantissa) / JSONPowersOfTen.table[scale]
            return negative ? -v : v
        }
        // The general case: strtod on a NUL-terminated copy.
        var buffer = [CChar](repeating: 0, count: end - start + 1)
        for j in start..<end { buffer[j - start] = CChar(bitPattern: text[j]) }
        return strtod(buffer, nil)
    }

    /// Materialises any value as a `JSONValue` (used for unknown fields); nil when a string
    /// in it is not valid UTF-8 or a number is past `ExactDecimal.exponentLimit`.
    func value(_ i: Int) -> JSONValue? {
        let t = tokens[i]
        switch t.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number:
            // Kept exactly, even past a Double's range: only the text is stored.
            let d = number(i)
            return JSONNumber(literal: UnsafeRawBufferPointer(rebasing: text[Int(t.start)..<Int(t.end)]), nearest: d)
                .map(JSONValue.number)
        case .string: return string(i).map(JSONValue.string)
        case .array:
            var items = [JSONValue]()
            var j = i + 1
            while j < Int(t.next) {
                guard let v = value(j) else { return nil }
                items.append(v)
                j = skip(j)
            }
            return .array(items)
        case .object:
            var members = [JSONMember]()
            var j = i + 1
            while j < Int(t.next) {
                guard let k = string(j), let v = value(j + 1) else { return nil }
                members.append(JSONMember(k, v))
                j = skip(j + 1)
            }
            return .object(members)
        }
    }

    /// The index of the token after the value at `i`.
    @inline(__always) func skip(_ i: Int) -> Int {
        let t = tokens[i]
        return t.kind == .object || t.kind == .array ? Int(t.next) : i + 1
    }
}

enum JSONPowersOfTen {
    static let table: [Double] = (0...22).map { k in
        var v = 1.0
        for _ in 0..<k { v *= 10 }
        return v
    }
}

extension String {
    /// The string of `bytes` when they are valid UTF-8; nil otherwise. Text that is all
    /// ASCII, the usual case, is taken without the general validation.
    @inline(__always) init?(validatingUTF8Bytes bytes: UnsafeRawBufferPointer) {
        if String.isASCII(bytes) {
            self = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let s = String(validating: bytes, as: UTF8.self) else { return nil }
            self = s
        }
    }

    /// Whether every byte is below 0x80, eight at a time.
    @inline(__always) static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var k = 0
        var high: UInt64 = 0
        while k + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        while k < bytes.count {
            high |= UInt64(bytes[k])
            k += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}

/// A reader of Apple's XML property lists (`<plist version="1.0">`, as `plutil -convert xml1`
/// and examiners' tools write them), into the same values as `BinaryPlist`.
///
/// It reads the plist vocabulary only: no external entities, no DTD is fetched or
/// expanded, and nesting, object count and text size have the binary reader's bounds, so a
/// hostile file is an error rather than a hang. A dictionary whose only key is `CF$UID`
/// (NSKeyedArchiver's reference in XML) becomes a `.uid`.
public enum XMLPlist {
    /// Whether `bytes` starts like an XML property list: after an optional byte order mark
    /// and white space, an XML declaration, a document type or the `plist` element.
    public static func looksLikePlist(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        if bytes[i...].starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
        while i < bytes.endIndex, XMLPlistParser.isSpace(bytes[i]) { i += 1 }
        let rest = bytes[i...]
        return rest.starts(with: "<?xml".utf8) || rest.starts(with: "<!DOCTYPE plist".utf8)
            || rest.starts(with: "<plist".utf8)
    }

    /// Parses a whole XML property list.
    /// - Throws: `WireFormatError` naming the byte offset (relative to `bytes`' start) of the fault.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(WireFormatError) -> PlistValue {
        var parser = XMLPlistParser(Array(bytes))
        return try parser.document()
    }
}

/// Either form of property list Apple writes.
public enum PropertyList {
    /// The form a property list was read from.
    public enum Form: String, Sendable {
        case binary = "binary plist"
        case xml = "XML plist"
    }

    /// Parses `bytes` as a binary or an XML property list, whichever it is.
    /// - Throws: `WireFormatError` when it is neither, or is malformed.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(WireFormatError) -> (value: PlistValue, form: Form) {
        if BinaryPlist.looksLikePlist(bytes) { return (try BinaryPlist.parse(bytes), .binary) }
        if XMLPlist.looksLikePlist(bytes) { return (try XMLPlist.parse(bytes), .xml) }
        throw WireFormatError(
            offset: 0, message: "not a property list (neither the bplist00 magic nor an XML plist's opening)")
    }
}

/// The XML plist grammar over a byte buffer.
struct XMLPlistParser {
    let b: [UInt8]
    var i = 0
    /// Values still allowed to be read.
    var budget = BinaryPlist.maximumObjects

    init(_ bytes: [UInt8]) { b = bytes }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    func fail(_ message: String, at offset: Int? = nil) -> WireFormatError {
        WireFormatError(offset: offset ?? i, message: "XML plist: " + message)
    }

    /// The document: prolog, `<plist>`, one value, `</plist>`, nothing after.
    mutating func document() throws(WireFormatError) -> PlistValue {
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        try skipMisc()
        let open = try tag()
        guard open.name == "plist", !open.closing, !open.empty else {
            throw fail("expected <plist>, found <\(open.closing ? "/" : "")\(open.name)>", at: open.offset)
        }
        try skipMisc()
        let value = try self.value(depth: 0)
        try skipMisc()
        let close = try tag()
        guard close.name == "plist", close.closing else {
            throw fail("expected </plist> after the root value, found <\(close.name)>", at: close.offset)
        }
        try skipMisc()
        guard i == b.count else { throw fail("content after </plist>") }
        return value
    }

    /// A tag: its name, whether it closes (`</x>`) or is empty (`<x/>`).
    struct Tag {
        var name: String
        var closing: Bool
        var empty: Bool
        var offset: Int
    }

    mutating func tag() throws(WireFormatError) -> Tag {
        let start = i
        guard i < b.count, b[i] == UInt8(ascii: "<") else { throw fail("expected a tag") }
        i += 1
        let closing = i < b.count && b[i] == UInt8(ascii: "/")
        if closing { i += 1 }
        let nameStart = i
        while i < b.count, b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "/"), !Self.isSpace(b[i]) { i += 1 }
        let name = String(decoding: b[nameStart..<i], as: UTF8.self)
        guard !name.isEmpty else { throw fail("a tag without a name", at: start) }
        // Attributes (`version="1.0"`) are passed over; no value here may hold `>`.
        while i < b.count, b[i] != UInt8(ascii: ">") { i += 1 }
        guard i < b.count else { throw fail("the tag <\(name)> is not closed", at: start) }
        let empty = !closing && b[i - 1] == UInt8(ascii: "/")
        i += 1
        return Tag(name: name, closing: closing, empty: empty, offset: start)
    }

    /// White space, comments, processing instructions and the document type.
    mutating func skipMisc() throws(WireFormatError) {
        while true {
            while i < b.count, Self.isSpace(b[i]) { i += 1 }
            if at("<?") {
                try skip(past: "?>")
            } else if at("<!--") {
                try skip(past: "-->")
            } else if at("<!DOCTYPE") {
                // A document type with an internal subset (`[...]`) could declare entities:
                // Apple's plists never have one.
                var j = i
                while j < b.count, b[j] != UInt8(ascii: ">") {
                    if b[j] == UInt8(ascii: "[") { throw fail("a document type with declarations", at: j) }
                    j += 1
                }
                guard j < b.count else { throw fail("the document type is not closed") }
                i = j + 1
            } else {
                return
            }
        }
    }

    func at(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        return text.withUTF8Buffer { t in (0..<n).allSatisfy { b[i + $0] == t[$0] } }
    }

    mutating func skip(past text: StaticString) throws(WireFormatError) {
        let start = i
        while i < b.count {
            if at(text) {
                i += text.utf8CodeUnitCount
                return
            }
            i += 1
        }
        throw fail("\(text) never comes", at: start)
    }

    /// One value: the element that starts here.
    mutating func value(depth: Int) throws(WireFormatError) -> PlistValue {
        guard depth < BinaryPlist.maximumDepth else {
            throw fail("nests deeper than \(BinaryPlist.maximumDepth)")
        }
        budget -= 1
        guard budget >= 0 else { throw fail("holds more than \(BinaryPlist.maximumObjects) values") }
        let open = try tag()
        guard !open.closing else { throw fail("</\(open.name)> where a value belongs", at: open.offset) }
        switch open.name {
        case "dict": return try dictionary(open, depth: depth)
        case "array": return try array(open, depth: depth)
        case "true", "false":
            if !open.empty { try end(open) }
            return .bool(open.name == "true")
        case "string":
            return .string(open.empty ? "" : try text(of: open))
        case "integer":
            let t = try trimmed(open)
            guard let v = Self.integer(t) else { throw fail("integer \"\(t.prefix(40))\" is not one", at: open.offset) }
            return .integer(v)
        case "real":
            let t = try trimmed(open)
            guard let v = Double(t) else { throw fail("real \"\(t.prefix(40))\" is not a number", at: open.offset) }
            return .real(v)
        case "date":
            let t = try trimmed(open)
            guard let v = Self.cocoaTime(t) else {
                throw fail("date \"\(t.prefix(40))\" is not YYYY-MM-DDTHH:MM:SSZ", at: open.offset)
            }
            return .date(v)
        case "data":
            let t = open.empty ? "" : try text(of: open)
            guard let v = Self.base64(t) else { throw fail("data is not base64", at: open.offset) }
            return .data(v)
        default:
            throw fail("<\(open.name)> is not a property-list element", at: open.offset)
        }
    }

    mutating func dictionary(_ open: Tag, depth: Int) throws(WireFormatError) -> PlistValue {
        var members = [(String, PlistValue)]()
        if open.empty { return .dictionary(members) }
        while true {
            try skipMisc()
            let key = try tag()
            if key.closing {
                guard key.name == "dict" else { throw fail("</\(key.name)> closes <dict>", at: key.offset) }
                break
            }
            guard key.name == "key" else { throw fail("<\(key.name)> where a <key> belongs", at: key.offset) }
            let name = key.empty ? "" : try text(of: key)
            try skipMisc()
            members.append((name, try value(depth: depth + 1)))
        }
        if members.count == 1, members[0].0 == "CF$UID", case .integer(let u) = members[0].1, u >= 0, u <= Int32.max {
            return .uid(Int(u))
        }
        return .dictionary(members)
    }

    mutating func array(_ open: Tag, depth: Int) throws(WireFormatError) -> PlistValue {
        var items = [PlistValue]()
        if open.empty { return .array(items) }
        while true {
            try skipMisc()
            if at("</") {
                let close = try tag()
                guard close.name == "array" else { throw fail("</\(close.name)> closes <array>", at: close.offset) }
                return .array(items)
            }
            items.append(try value(depth: depth + 1))
        }
    }

    /// The closing tag of `open`, next.
    mutating func end(_ open: Tag) throws(WireFormatError) {
        let close = try tag()
        guard close.closing, close.name == open.name else {
            throw fail("<\(open.name)> is not closed by </\(open.name)>", at: close.offset)
        }
    }

    /// The text of `open` without the white space around it.
    mutating func trimmed(_ open: Tag) throws(WireFormatError) -> String {
        let u = Array((open.empty ? "" : try text(of: open)).utf8)
        var (s, e) = (0, u.count)
        while s < e, Self.isSpace(u[s]) { s += 1 }
        while e > s, Self.isSpace(u[e - 1]) { e -= 1 }
        return String(decoding: u[s..<e], as: UTF8.self)
    }

    /// The character data of `open` up to its closing tag, with entities and CDATA decoded.
    mutating func text(of open: Tag) throws(WireFormatError) -> String {
        var out = [UInt8]()
        while true {
            guard i < b.count else { throw fail("<\(open.name)> is not closed", at: open.offset) }
            let c = b[i]
            if c == UInt8(ascii: "<") {
                if at("<![CDATA[") {
                    i += 9
                    let start = i
                    try skip(past: "]]>")
                    out += b[start..<(i - 3)]
                    continue
                }
                if at("<!--") {
                    try skip(past: "-->")
                    continue
                }
                try end(open)
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "&") {
                try entity(into: &out)
                continue
            }
            out.append(c)
            i += 1
        }
    }

    /// One entity reference: the five XML names or a character reference.
    mutating func entity(into out: inout [UInt8]) throws(WireFormatError) {
        let start = i
        var j = i + 1
        while j < b.count, j - i < 12, b[j] != UInt8(ascii: ";") { j += 1 }
        guard j < b.count, b[j] == UInt8(ascii: ";") else { throw fail("an unterminated entity reference", at: start) }
        let name = String(decoding: b[(i + 1)..<j], as: UTF8.self)
        i = j + 1
        switch name {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            let digits = name.dropFirst(hex ? 2 : 1)
            guard name.hasPrefix("#"), let code = UInt32(digits, radix: hex ? 16 : 10),
                let scalar = Unicode.Scalar(code)
            else { throw fail("the entity &\(name); is not one a property list may use", at: start) }
            out += Array(String(Character(scalar)).utf8)
        }
    }

    /// An integer as CoreFoundation writes it: decimal, with an optional sign, or `0x` hex.
    static func integer(_ t: String) -> Int64? {
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return Int64(t.dropFirst(2), radix: 16) }
        if let v = Int64(t) { return v }
        // CoreFoundation writes unsigned 64-bit values past Int64.max as their digits.
        return UInt64(t).map { Int64(bitPattern: $0) }
    }

    /// Seconds since 2001-01-01 UTC of `YYYY-MM-DDTHH:MM:SSZ`.
    static func cocoaTime(_ t: String) -> Double? {
        let u = Array(t.utf8)
        guard u.count == 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
            u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "Z")
        else { return nil }
        func n(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for k in from..<(from + count) {
                guard u[k] >= 0x30, u[k] <= 0x39 else { return nil }
                v = v * 10 + Int(u[k] - 0x30)
            }
            return v
        }
        guard let y = n(0, 4), let mo = n(5, 2), let d = n(8, 2), let h = n(11, 2), let mi = n(14, 2),
            let s = n(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 60
        else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), then from 2001-01-01.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468 - 11_323
        return Double(days * 86_400 + h * 3_600 + mi * 60 + s)
    }

    /// Base64 with white space between its characters, as plists wrap it.
    static func base64(_ t: String) -> [UInt8]? {
        var out = [UInt8]()
        var acc: UInt32 = 0
        var bits = 0
        var padding = 0
        for c in t.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                if isSpace(c) { continue }
                return nil
            }
            guard padding == 0 else { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        return padding <= 2 ? out : nil
    }
}

import RecordFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The members of one JSON object on a tape, taken one by one by name, so that what is
/// left are the unknown fields. Nothing is allocated: keys are compared as bytes and
/// the members taken are kept in a bit set. Errors name the token they concern; the
/// decoder turns that into the field's path only when an error is reported.
struct ObjectFields {
    let r: TapeReader
    let index: Int
    /// How many members the object has.
    let count: Int
    private var used: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// Where the next search starts: fields are usually in contract order, so the key
    /// wanted next is usually the one after the last found.
    private var hint: (member: Int, token: Int)
    /// One bit per key present (by a 6-bit hash of its bytes): a clear bit means absent.
    private var keyBits: UInt64 = ~0

    /// The most members an object may have.
    static let maximumMembers = 256

    init(_ r: TapeReader, _ index: Int) throws(FieldError) {
        self.r = r
        self.index = index
        let t = r.token(index)
        guard t.kind == .object else { throw FieldError(token: index, message: "expected an object") }
        count = Int(t.count)
        hint = (0, index + 1)
        guard count <= ObjectFields.maximumMembers else {
            throw FieldError(
                token: index, message: "the object has \(count) keys; the limit is \(ObjectFields.maximumMembers)")
        }
        if count > 1 { try checkDuplicateKeysAndIndex() }
    }

    /// A cheap fingerprint of a key: its length and up to its first 7 bytes.
    @inline(__always) private func fingerprint(_ keyToken: Int) -> UInt64 {
        let t = r.token(keyToken)
        let length = Int(t.end - t.start)
        var f = UInt64(length)
        let n = min(length, 7)
        for k in 0..<n { f |= UInt64(r.text[Int(t.start) + k]) << (8 * UInt64(k + 1)) }
        // Escaped keys compare by their decoded text.
        guard t.escaped, let key = r.string(keyToken) else { return f }
        var g = UInt64(key.utf8.count)
        for (k, b) in key.utf8.prefix(7).enumerated() { g |= UInt64(b) << (8 * UInt64(k + 1)) }
        return g
    }

    @inline(__always) private static func bit(_ fingerprint: UInt64) -> UInt64 {
        1 << ((fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    private mutating func checkDuplicateKeysAndIndex() throws(FieldError) {
        let end = Int(r.token(index).next)
        let n = count
        let (bits, duplicate): (UInt64, Int?) = withUnsafeTemporaryAllocation(of: (UInt64, Int).self, capacity: n) {
            keys in
            var bits: UInt64 = 0
            var i = index + 1
            var m = 0
            while i < end {
                let f = fingerprint(i)
                bits |= ObjectFields.bit(f)
                for k in 0..<m where keys[k].0 == f && sameKey(keys[k].1, i) { return (bits, i) }
                keys[m] = (f, i)
                m += 1
                i = r.skip(i + 1)
            }
            return (bits, nil)
        }
        if let duplicate { throw FieldError(token: duplicate, message: "the key appears twice in one object") }
        keyBits = bits
    }

    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let ta = r.token(a)
        let tb = r.token(b)
        if ta.escaped || tb.escaped { return r.string(a) == r.string(b) }
        return ObjectFields.equalBytes(r.rawString(a), r.rawString(b))
    }

    @inline(__always)
    static func equalBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        if a[0] != b[0] { return false }
        if a.count <= 16 {
            for i in 1..<a.count where a[i] != b[i] { return false }
            return true
        }
        return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    private func isUsed(_ m: Int) -> Bool {
        let bit = UInt64(1) << UInt64(m & 63)
        switch m >> 6 {
        case 0: return used.0 & bit != 0
        case 1: return used.1 & bit != 0
        case 2: return used.2 & bit != 0
        default: return used.3 & bit != 0
        }
    }

    private mutating func markUsed(_ m: Int) {
        let bit = UInt64(1) << UInt64(m & 63)
        switch m >> 6 {
        case 0: used.0 |= bit
        case 1: used.1 |= bit
        case 2: used.2 |= bit
        default: used.3 |= bit
        }
    }

    private var usedCount: Int {
        used.0.nonzeroBitCount + used.1.nonzeroBitCount + used.2.nonzeroBitCount + used.3.nonzeroBitCount
    }

    private func find(_ name: StaticString) -> (member: Int, value: Int)? {
        find(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private func find(_ name: String) -> (member: Int, value: Int)? {
        var n = name
        return n.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }

    private func find(_ wanted: UnsafeRawBufferPointer) -> (member: Int, value: Int)? {
        guard count > 0 else { return nil }
        do {
            if keyBits != ~0 {
                var f = UInt64(wanted.count)
                for k in 0..<min(wanted.count, 7) { f |= UInt64(wanted[k]) << (8 * UInt64(k + 1)) }
                if keyBits & ObjectFields.bit(f) == 0 { return nil }
            }
            let end = Int(r.token(index).next)
            var j = hint.token
            var m = hint.member
            for _ in 0..<count {
                if j >= end {
                    j = index + 1
                    m = 0
                }
                let k = r.token(j)
                if k.escaped {
                    if let key = r.string(j), key.utf8.elementsEqual(wanted) { return (m, j + 1) }
                } else if ObjectFields.equalBytes(r.rawString(j), wanted) {
                    return (m, j + 1)
                }
                j = r.skip(j + 1)
                m += 1
            }
            return nil
        }
    }

    /// The value token of `name`, marking it used; nil when absent.
    mutating func take(_ name: StaticString) -> Int? {
        guard let (m, v) = find(name) else { return nil }
        markUsed(m)
        hint = (m + 1, r.skip(v))
        return v
    }

    /// A non-empty string field that may be absent.
    mutating func optionalNonEmptyString(_ name: StaticString) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        let s = try stringValue(t)
        guard !s.isEmpty else { throw error(name, "must not be empty", at: t) }
        return s
    }

    func has(_ name: StaticString) -> Bool { find(name) != nil }

    /// A non-empty string field that may be absent, checked but left among the unknown
    /// fields (for a field this version stores as unknown).
    func peekNonEmptyString(_ name: StaticString) throws(FieldError) -> String? {
        guard let (_, v) = find(name) else { return nil }
        let s = try stringValue(v)
        guard !s.isEmpty else { throw error(name, "must not be empty", at: v) }
        return s
    }

    func isNull(_ token: Int) -> Bool { r.token(token).kind == .null }

    /// An error about `name`: at its value when given or present, else about the object
    /// (a missing key).
    func error(_ name: StaticString, _ message: String, at token: Int? = nil) -> FieldError {
        if let token { return FieldError(token: token, message: message) }
        if let (_, v) = find(name) { return FieldError(token: v, message: message) }
        return FieldError(token: index, missingKey: "\(name)", message: message)
    }

    func error(_ name: String, _ message: String, at token: Int? = nil) -> FieldError {
        if let token { return FieldError(token: token, message: message) }
        if let (_, v) = find(name) { return FieldError(token: v, message: message) }
        return FieldError(token: index, missingKey: name, message: message)
    }

    mutating func require(_ name: StaticString) throws(FieldError) -> Int {
        guard let v = take(name) else { throw error(name, "is required but missing") }
        return v
    }

    // MARK: typed accessors

    func stringValue(_ token: Int) throws(FieldError) -> String {
        guard r.token(token).kind == .string else { throw FieldError(token: token, message: "must be a string") }
        guard let s = r.string(token) else {
            throw FieldError(token: token, message: "is not valid UTF-8 or has a bad escape")
        }
        return s
    }

    mutating func string(_ name: StaticString) throws(FieldError) -> String {
        let t = try require(name)
        let s = try stringValue(t)
        guard !s.isEmpty else { throw error(name, "must not be empty", at: t) }
        return s
    }

    mutating func optionalString(_ name: StaticString) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        return try stringValue(t)
    }

    mutating func enumeration(_ name: StaticString, _ allowed: [String]) throws(FieldError) -> String {
        try enumValue(try require(name), allowed)
    }

    mutating func optionalEnumeration(_ name: StaticString, _ allowed: [String]) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        return try enumValue(t, allowed)
    }

    func enumValue(_ t: Int, _ allowed: [String]) throws(FieldError) -> String {
        let s = try stringValue(t)
        guard allowed.contains(s) else {
            throw FieldError(
                token: t, message: "\"\(s)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return s
    }

    func boolValue(_ t: Int) throws(FieldError) -> Bool {
        switch r.token(t).kind {
        case .true: return true
        case .false: return false
        default: throw FieldError(token: t, message: "must be true or false")
        }
    }

    mutating func bool(_ name: StaticString) throws(FieldError) -> Bool { try boolValue(try require(name)) }

    mutating func optionalBool(_ name: StaticString) throws(FieldError) -> Bool? {
        guard let t = take(name) else { return nil }
        return try boolValue(t)
    }

    func numberValue(_ t: Int) throws(FieldError) -> Double {
        guard r.token(t).kind == .number else { throw FieldError(token: t, message: "must be a number") }
        let d = r.number(t)
        guard d.isFinite else { throw FieldError(token: t, message: "must be a finite number") }
        return d
    }

    mutating func number(_ name: StaticString) throws(FieldError) -> Double { try numberValue(try require(name)) }

    mutating func optionalNumber(_ name: StaticString) throws(FieldError) -> Double? {
        guard let t = take(name) else { return nil }
        return try numberValue(t)
    }

    /// A duration in seconds: a finite number from 0 to `Duration.maximumSeconds` (10 years).
    mutating func optionalDuration(_ name: StaticString) throws(FieldError) -> Double? {
        guard let t = take(name) else { return nil }
        let d = try numberValue(t)
        guard d >= 0 else {
            throw error(name, "must not be negative (got \(CanonicalWriter.text(of: .number(d))))", at: t)
        }
        guard d <= EventLimits.maximumDurationSeconds else {
            throw error(
                name, "must be at most 315576000 s (10 years) (got \(CanonicalWriter.text(of: .number(d))))", at: t)
        }
        return d
    }

    mutating func optionalPosition(_ name: StaticString) throws(FieldError) -> Int? {
        guard let t = take(name) else { return nil }
        let d = try numberValue(t)
        guard d >= 0, d == d.rounded(), d < 1_000_000 else {
            throw error(name, "must be a whole number from 0 (the top)", at: t)
        }
        return Int(d)
    }

    func timeValue(_ t: Int) throws(FieldError) -> Timestamp {
        let tok = r.token(t)
        guard tok.kind == .string, !tok.escaped else {
            throw FieldError(token: t, message: "must be an RFC 3339 time string")
        }
        do {
            return try Timestamp.parse(r.rawString(t))
        } catch {
            var e = FieldError(token: t, message: error.reason)
            e.offset = Int(tok.start) + error.offset
            throw e
        }
    }

    mutating func time(_ name: StaticString) throws(FieldError) -> Timestamp { try timeValue(try require(name)) }

    mutating func optionalTime(_ name: StaticString) throws(FieldError) -> Timestamp? {
        guard let t = take(name) else { return nil }
        return try timeValue(t)
    }

    /// The element tokens of an array field, checked against `limit`.
    mutating func array(_ name: StaticString, limit: Int, optional: Bool = false) throws(FieldError) -> [Int]? {
        guard let t = take(name) else {
            if optional { return nil }
            throw error(name, "is required but missing")
        }
        return try elements(of: t, limit: limit)
    }

    /// The element tokens of the array at `t`, checked against `limit`.
    func elements(of t: Int, limit: Int) throws(FieldError) -> [Int] {
        let tok = r.token(t)
        guard tok.kind == .array else { throw FieldError(token: t, message: "must be an array") }
        guard Int(tok.count) <= limit else {
            throw FieldError(token: t, message: "has \(tok.count) elements; the limit is \(limit)")
        }
        var out = [Int]()
        out.reserveCapacity(Int(tok.count))
        var j = t + 1
        while j < Int(tok.next) {
            out.append(j)
            j = r.skip(j)
        }
        return out
    }

    func object(_ token: Int) throws(FieldError) -> ObjectFields {
        try ObjectFields(r, token)
    }

    /// The members not taken, in input order.
    func extras() throws(FieldError) -> [JSONMember] {
        guard usedCount < count else { return [] }
        var out = [JSONMember]()
        var k = index + 1
        let end = Int(r.token(index).next)
        var m = 0
        while k < end {
            if !isUsed(m) {
                guard let key = r.string(k), let v = r.value(k + 1) else {
                    throw FieldError(
                        token: k + 1,
                        message:
                            "holds a string that is not valid UTF-8 or has a bad escape, or a number whose power of ten passes ±1,000,000,000 (the limit of a number's exponent)"
                    )
                }
                out.append(JSONMember(key, v))
            }
            k = r.skip(k + 1)
            m += 1
        }
        return out
    }

    /// The only key of a shape that takes exactly one.
    func requireSingleKey(_ what: String) throws(FieldError) -> String {
        guard count == 1 else {
            throw FieldError(token: index, message: "\(what) must have exactly one key (found \(count))")
        }
        guard let k = r.string(index + 1) else {
            throw FieldError(token: index + 1, message: "the key is not valid UTF-8")
        }
        return k
    }
}

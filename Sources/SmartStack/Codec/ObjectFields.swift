import Ledger
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

    /// The most members an object may have.
    static let maximumMembers = 256

    init(_ r: TapeReader, _ index: Int) throws(FieldError) {
        self.r = r
        self.index = index
        let t = r.token(index)
        guard t.kind == .object else { throw FieldError(token: index, message: "expected an object") }
        count = Int(t.count)
        guard count <= ObjectFields.maximumMembers else {
            throw FieldError(token: index, message: "the object has \(count) keys; the limit is \(ObjectFields.maximumMembers)")
        }
        if count > 1 { try checkDuplicateKeys() }
    }

    private func checkDuplicateKeys() throws(FieldError) {
        let end = Int(r.token(index).next)
        var i = index + 1
        while i < end {
            var j = r.skip(i + 1)
            while j < end {
                if sameKey(i, j) { throw FieldError(token: j, message: "the key appears twice in one object") }
                j = r.skip(j + 1)
            }
            i = r.skip(i + 1)
        }
    }

    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let ta = r.token(a), tb = r.token(b)
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

    private func find(_ name: String) -> (member: Int, value: Int)? {
        var n = name
        return n.withUTF8 { utf8 -> (Int, Int)? in
            let wanted = UnsafeRawBufferPointer(utf8)
            var j = index + 1
            let end = Int(r.token(index).next)
            var m = 0
            while j < end {
                let k = r.token(j)
                if k.escaped {
                    if r.string(j) == name { return (m, j + 1) }
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
    mutating func take(_ name: String) -> Int? {
        guard let (m, v) = find(name) else { return nil }
        markUsed(m)
        return v
    }

    func has(_ name: String) -> Bool { find(name) != nil }

    func isNull(_ token: Int) -> Bool { r.token(token).kind == .null }

    /// An error about `name`: at its value when given or present, else about the object
    /// (a missing key).
    func error(_ name: String, _ message: String, at token: Int? = nil) -> FieldError {
        if let token { return FieldError(token: token, message: message) }
        if let (_, v) = find(name) { return FieldError(token: v, message: message) }
        return FieldError(token: index, missingKey: name, message: message)
    }

    mutating func require(_ name: String) throws(FieldError) -> Int {
        guard let v = take(name) else { throw error(name, "is required but missing") }
        return v
    }

    // MARK: typed accessors

    func stringValue(_ token: Int, _ name: String) throws(FieldError) -> String {
        guard r.token(token).kind == .string else { throw error(name, "must be a string", at: token) }
        guard let s = r.string(token) else { throw error(name, "is not valid UTF-8 or has a bad escape", at: token) }
        return s
    }

    mutating func string(_ name: String) throws(FieldError) -> String {
        let t = try require(name)
        let s = try stringValue(t, name)
        guard !s.isEmpty else { throw error(name, "must not be empty", at: t) }
        return s
    }

    mutating func optionalString(_ name: String) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        return try stringValue(t, name)
    }

    mutating func enumeration(_ name: String, _ allowed: [String]) throws(FieldError) -> String {
        try enumValue(try require(name), name, allowed)
    }

    mutating func optionalEnumeration(_ name: String, _ allowed: [String]) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        return try enumValue(t, name, allowed)
    }

    func enumValue(_ t: Int, _ name: String, _ allowed: [String]) throws(FieldError) -> String {
        let s = try stringValue(t, name)
        guard allowed.contains(s) else {
            throw error(name, "\"\(s)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))", at: t)
        }
        return s
    }

    func boolValue(_ t: Int, _ name: String) throws(FieldError) -> Bool {
        switch r.token(t).kind {
        case .true: return true
        case .false: return false
        default: throw error(name, "must be true or false", at: t)
        }
    }

    mutating func bool(_ name: String) throws(FieldError) -> Bool { try boolValue(try require(name), name) }

    mutating func optionalBool(_ name: String) throws(FieldError) -> Bool? {
        guard let t = take(name) else { return nil }
        return try boolValue(t, name)
    }

    func numberValue(_ t: Int, _ name: String) throws(FieldError) -> Double {
        guard r.token(t).kind == .number else { throw error(name, "must be a number", at: t) }
        let d = r.number(t)
        guard d.isFinite else { throw error(name, "must be a finite number", at: t) }
        return d
    }

    mutating func number(_ name: String) throws(FieldError) -> Double { try numberValue(try require(name), name) }

    mutating func optionalNumber(_ name: String) throws(FieldError) -> Double? {
        guard let t = take(name) else { return nil }
        return try numberValue(t, name)
    }

    /// A duration in seconds: a finite number >= 0.
    mutating func optionalDuration(_ name: String) throws(FieldError) -> Double? {
        guard let t = take(name) else { return nil }
        let d = try numberValue(t, name)
        guard d >= 0 else { throw error(name, "must not be negative (got \(d))", at: t) }
        return d
    }

    mutating func optionalPosition(_ name: String) throws(FieldError) -> Int? {
        guard let t = take(name) else { return nil }
        let d = try numberValue(t, name)
        guard d >= 0, d == d.rounded(), d < 1_000_000 else {
            throw error(name, "must be a whole number from 0 (the top)", at: t)
        }
        return Int(d)
    }

    func timeValue(_ t: Int, _ name: String) throws(FieldError) -> Timestamp {
        let tok = r.token(t)
        guard tok.kind == .string, !tok.escaped else { throw error(name, "must be an RFC 3339 time string", at: t) }
        do {
            return try Timestamp.parse(r.rawString(t))
        } catch {
            var e = FieldError(token: t, message: error.reason)
            e.offset = Int(tok.start) + error.offset
            throw e
        }
    }

    mutating func time(_ name: String) throws(FieldError) -> Timestamp { try timeValue(try require(name), name) }

    mutating func optionalTime(_ name: String) throws(FieldError) -> Timestamp? {
        guard let t = take(name) else { return nil }
        return try timeValue(t, name)
    }

    /// The element tokens of an array field, checked against `limit`.
    mutating func array(_ name: String, limit: Int, optional: Bool = false) throws(FieldError) -> [Int]? {
        guard let t = take(name) else {
            if optional { return nil }
            throw error(name, "is required but missing")
        }
        let tok = r.token(t)
        guard tok.kind == .array else { throw error(name, "must be an array", at: t) }
        guard Int(tok.count) <= limit else {
            throw error(name, "has \(tok.count) elements; the limit is \(limit)", at: t)
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
                    throw FieldError(token: k + 1, message: "holds a value that is not valid JSON text (bad UTF-8 or a non-finite number)")
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
        guard let k = r.string(index + 1) else { throw FieldError(token: index + 1, message: "the key is not valid UTF-8") }
        return k
    }
}

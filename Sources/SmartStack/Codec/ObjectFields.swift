import Ledger

/// The members of one JSON object on a tape, taken one by one by name, so that what is
/// left are the unknown fields. Every accessor checks the JSON type and names the field
/// in its error.
struct ObjectFields {
    let r: TapeReader
    let path: String
    let index: Int
    private var names: [String] = []
    private var values: [Int] = []
    private var used: [Bool] = []

    init(_ r: TapeReader, _ index: Int, path: String) throws(FieldError) {
        self.r = r
        self.path = path
        self.index = index
        let t = r.token(index)
        guard t.kind == .object else {
            throw FieldError(offset: Int(t.start), field: path, message: "expected an object")
        }
        var j = index + 1
        names.reserveCapacity(Int(t.count))
        while j < Int(t.next) {
            guard let k = r.string(j) else {
                throw FieldError(offset: Int(r.token(j).start), field: path, message: "a key is not valid UTF-8 or has a bad escape")
            }
            if names.contains(k) {
                throw FieldError(offset: Int(r.token(j).start), field: sub(k), message: "the key appears twice in one object")
            }
            names.append(k)
            values.append(j + 1)
            j = r.skip(j + 1)
        }
        used = [Bool](repeating: false, count: names.count)
    }

    func sub(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    var offset: Int { Int(r.token(index).start) }
    var count: Int { names.count }

    func error(_ name: String, _ message: String, at token: Int? = nil) -> FieldError {
        FieldError(offset: token.map { Int(r.token($0).start) } ?? offset, field: sub(name), message: message)
    }

    /// The value token of `name`, marking it used; nil when absent.
    mutating func take(_ name: String) -> Int? {
        for i in 0..<names.count where names[i] == name {
            used[i] = true
            return values[i]
        }
        return nil
    }

    func has(_ name: String) -> Bool { names.contains(name) }

    func isNull(_ token: Int) -> Bool { r.token(token).kind == .null }

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
        let s = try stringValue(try require(name), name)
        guard !s.isEmpty else { throw error(name, "must not be empty") }
        return s
    }

    mutating func optionalString(_ name: String) throws(FieldError) -> String? {
        guard let t = take(name) else { return nil }
        return try stringValue(t, name)
    }

    mutating func enumeration(_ name: String, _ allowed: [String]) throws(FieldError) -> String {
        let t = try require(name)
        return try enumValue(t, name, allowed)
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
        let raw = UnsafeRawBufferPointer(rebasing: r.text[Int(tok.start)..<Int(tok.end)])
        do {
            return try Timestamp.parse(raw)
        } catch {
            throw FieldError(offset: Int(tok.start) + error.offset, field: sub(name), message: "\(error.reason)")
        }
    }

    mutating func time(_ name: String) throws(FieldError) -> Timestamp { try timeValue(try require(name), name) }

    mutating func optionalTime(_ name: String) throws(FieldError) -> Timestamp? {
        guard let t = take(name) else { return nil }
        return try timeValue(t, name)
    }

    /// The elements of an array field, checked against `limit`.
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

    func object(_ token: Int, path: String) throws(FieldError) -> ObjectFields {
        try ObjectFields(r, token, path: path)
    }

    /// The members not taken, in input order.
    func extras() throws(FieldError) -> [JSONMember] {
        var out = [JSONMember]()
        for i in 0..<names.count where !used[i] {
            guard let v = r.value(values[i]) else {
                throw error(names[i], "holds a value that is not valid JSON text (bad UTF-8 or a non-finite number)", at: values[i])
            }
            out.append(JSONMember(names[i], v))
        }
        return out
    }

    /// Fails when a shape that takes exactly one key has zero or several.
    func requireSingleKey(_ what: String) throws(FieldError) -> String {
        guard names.count == 1 else {
            throw FieldError(offset: offset, field: path, message: "\(what) must have exactly one key (found \(names.count))")
        }
        return names[0]
    }
}

/// A property-list value, as a binary plist holds it, or after an NSKeyedArchiver
/// archive has been resolved (see `KeyedArchive`).
public indirect enum PlistValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// Seconds since 2001-01-01 UTC (Cocoa reference time).
    case date(Double)
    case data([UInt8])
    case string(String)
    /// An NSKeyedArchiver object reference (only before resolution).
    case uid(Int)
    case array([PlistValue])
    /// Keys in the order the file gives them.
    case dictionary([(String, PlistValue)])

    /// The value under `key`, for a dictionary.
    public subscript(key: String) -> PlistValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Follows `keys` through nested dictionaries.
    public func value(at keys: String...) -> PlistValue? {
        var v: PlistValue? = self
        for k in keys { v = v?[k] }
        return v
    }

    /// The value as text, when it is a string.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value as an integer (integers, booleans and integral reals).
    public var integer: Int64? {
        switch self {
        case .integer(let v): return v
        case .bool(let b): return b ? 1 : 0
        case .real(let d) where d == d.rounded() && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }

    /// The value as a number.
    public var number: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let d), .date(let d): return d
        default: return nil
        }
    }

    /// The value as a Cocoa time (a date, or a number of seconds since 2001).
    public var cocoaTime: Double? { number }

    /// The elements, for an array.
    public var array: [PlistValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// What kind of value it is, as a message names it (`a string`, `an array`).
    public var typeName: String {
        switch self {
        case .null: "a null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .real: "a real"
        case .date: "a date"
        case .data: "a data"
        case .string: "a string"
        case .uid: "a reference"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }

    public static func == (lhs: PlistValue, rhs: PlistValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)), (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.uid(let a), .uid(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

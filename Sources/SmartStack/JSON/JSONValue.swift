/// A JSON value kept as written, for fields the contract does not name and for
/// intent parameter values. Objects keep their key order.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as given (see `JSONNumber`).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in key order.
    case object([JSONMember])

    /// The number `d` (finite), in canonical form.
    public static func number(_ d: Double) -> JSONValue { .number(JSONNumber(d)) }

    /// Whether this is a scalar (null, bool, number or string).
    public var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}

/// One key and value of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

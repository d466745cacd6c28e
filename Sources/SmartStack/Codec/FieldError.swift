/// Why an event line is invalid: where (byte offset in the line), which field, and what
/// is wrong.
public struct FieldError: Error, Sendable, CustomStringConvertible {
    /// The byte offset in the line (0-based) of the offending value.
    public var offset: Int
    /// The field's path, e.g. `entries[1].relevance.score` (empty for the line itself).
    public var field: String
    /// What is wrong and what is expected.
    public var message: String

    /// The tape token the error concerns, until the decoder resolves `field` and `offset`.
    var token = -1
    /// For a missing key: its name, below the object `token`.
    var missingKey: String?

    /// Creates an error.
    public init(offset: Int, field: String, message: String) {
        self.offset = offset
        self.field = field
        self.message = message
    }

    /// An error about a token, resolved to a path and offset by the decoder.
    init(token: Int, missingKey: String? = nil, message: String) {
        self.offset = -1
        self.field = ""
        self.message = message
        self.token = token
        self.missingKey = missingKey
    }

    /// Fills in the field's path and the offset from the tape.
    mutating func resolve(_ r: TapeReader) {
        guard token >= 0 else { return }
        let path = r.path(of: token)
        if let missingKey { field = path.isEmpty ? missingKey : path + "." + missingKey } else { field = path }
        if offset < 0 {
            let t = r.token(token)
            offset = Int(t.start) - (t.kind == .string ? 1 : 0)
        }
        token = -1
    }

    public var description: String { field.isEmpty ? message : "field \(field): \(message)" }
}

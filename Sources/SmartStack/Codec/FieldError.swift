/// Why an event line is invalid: where (byte offset in the line), which field, and what
/// is wrong.
public struct FieldError: Error, Sendable, CustomStringConvertible {
    /// The byte offset in the line (0-based) of the offending value.
    public var offset: Int
    /// The field's path, e.g. `entries[1].relevance.score` (empty for the line itself).
    public var field: String
    /// What is wrong and what is expected.
    public var message: String

    /// Creates an error.
    public init(offset: Int, field: String, message: String) {
        self.offset = offset
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "field \(field): \(message)" }
}

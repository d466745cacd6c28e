/// An error from the ledger, with a message that says what is wrong and what to do.
public struct LedgerError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, which decides the exit code a command returns.
    public enum Kind: Sendable, Equatable {
        /// The store cannot be read or written (I/O, permissions, a full map or disk).
        case storage
        /// The store was written by a newer format version.
        case newerFormat
        /// The store's files are damaged (truncated, failing checks).
        case damaged
        /// An event id already stored with different content.
        case idConflict
        /// No store exists at the path.
        case missing
    }

    /// What failed.
    public let kind: Kind
    /// The full message.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

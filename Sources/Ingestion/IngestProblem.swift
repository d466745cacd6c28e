import SmartStack

/// An input line that was rejected: where it is and what is wrong with it.
public struct IngestProblem: Sendable, CustomStringConvertible {
    /// The input file (`-` for standard input).
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based byte column.
    public var column: Int
    /// The field's path, empty when the problem is the line itself.
    public var field: String
    /// What is wrong.
    public var message: String

    public var description: String {
        field.isEmpty
            ? "\(file):\(line):\(column): \(message)" : "\(file):\(line):\(column): field \(field): \(message)"
    }
}

/// What an ingest run did.
public struct IngestSummary: Sendable {
    /// Events stored.
    public var stored = 0
    /// Events skipped because an identical event with the same id was stored.
    public var duplicates = 0
    /// Lines rejected (with `--skip-invalid`).
    public var rejected = 0
    /// The rejected lines (at most 1,000 kept).
    public var problems: [IngestProblem] = []
    /// The first and last sequence numbers stored.
    public var firstSeq: UInt64?, lastSeq: UInt64?

    /// A run that has stored nothing yet.
    public init() {}
}

/// Why an ingest run stored nothing.
public struct IngestRejected: Error, Sendable, CustomStringConvertible {
    /// The invalid lines (at most 1,000 kept).
    public var problems: [IngestProblem]
    /// How many lines were invalid in all.
    public var count: Int

    public var description: String {
        let first = problems.first.map(\.description) ?? "invalid input"
        return "\(first)" + (count > 1 ? " (and \(count - 1) more invalid lines)" : "")
            + "; nothing was stored. Fix the lines, or rerun with --skip-invalid to store the valid ones"
    }
}

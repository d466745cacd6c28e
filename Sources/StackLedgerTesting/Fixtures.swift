/// Paths of the fixtures kept in the repository (`Tests/Fixtures`).
public enum Fixtures {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Sources/StackLedgerTesting/Fixtures.swift
        return parts.joined(separator: "/")
    }()

    /// The path of a fixture, e.g. `scenarios/cards-day.ndjson`.
    public static func path(_ relative: String) -> String {
        repositoryRoot + "/Tests/Fixtures/" + relative
    }
}

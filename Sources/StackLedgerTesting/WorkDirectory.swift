import Foundation

/// A directory of its own under the temporary directory, for one test's files and store.
public struct WorkDirectory: Sendable {
    /// The directory.
    public let path: String

    /// Creates a new, empty directory.
    public init() {
        path = NSTemporaryDirectory() + "stackledger-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A store path inside it.
    public var store: String { path + "/store" }

    /// The path of `name` inside it.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside it and returns the path.
    public func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }

    /// Removes the directory and what it holds.
    public func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

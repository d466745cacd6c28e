import Crypto
import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting

/// A temporary directory for one test, removed by `cleanup()`.
struct Scratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "stackledger-import-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }

    func ledger() throws -> Ledger { try Ledger(path: path + "/store") }

    /// Writes `bytes` at `relative`, creating directories.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Copies a fixture (under Tests/Fixtures) to `relative`.
    @discardableResult
    func copyFixture(_ fixture: String, to relative: String) throws -> String {
        try write(relative, [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture)))))
    }
}

func md5(_ path: String) throws -> String {
    let digest = Insecure.MD5.hash(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    return digest.map { String(format: "%02x", $0) }.joined()
}

func sha256(_ path: String) throws -> String {
    SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).map { String(format: "%02x", $0) }.joined()
}

/// Runs `sqlite3` (the command-line shell) on a database, read-only, for an independent
/// reading: immutable (the file as it lies), or, with `recovering`, opened as usual, so that
/// the shell recovers a hot journal or a write-ahead log.
func sqlite3(_ database: String, _ sql: String, recovering: Bool = false) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = recovering ? [database, sql] : ["-readonly", "file:\(database)?immutable=1", sql]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs `sqlite3` with `sql` on standard input, creating or changing `database`.
func sqlite3Write(_ database: String, _ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(Data(sql.utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    if process.terminationStatus != 0 { throw CocoaError(.fileWriteUnknown) }
}

/// The events of a canonical text form, for comparing.
func canonical(_ e: Event) -> String {
    var w = CanonicalWriter()
    e.writeCanonical(&w)
    return w.text
}

extension Array where Element == UInt8 {
    var hexLiteral: String { "X'" + map { String(format: "%02X", $0) }.joined() + "'" }
}

extension Ledger {
    /// Every stored event, in sequence order.
    func storedEvents() throws -> [Event] {
        try read { reader in
            var events = [Event]()
            try reader.scan { view in
                events.append(try Event(record: view))
                return true
            }
            return events
        }
    }

    /// The last sequence number (0 when empty).
    func lastStoredSeq() throws -> UInt64 { try read { try $0.lastSeq() } }
}

import Dispatch
import Foundation
import Ledger
import SQLiteKit

/// An SQLite database from an extraction, opened so that the evidence is never written and
/// only committed data is read.
///
/// Without a write-ahead log or a hot rollback journal the file is opened in place,
/// read-only and immutable. With a non-empty `-wal` beside it, or a hot `-journal` (its
/// writer died, or the file was copied mid-transaction), the database and that file are
/// copied to a private temporary directory and the copy is opened, so SQLite recovers it as
/// it would the original: the log's committed transactions are replayed, the journal's
/// uncommitted changes rolled back. `recovery` says what that did. The SHA-256 of the file
/// (and of its log or journal) is taken before opening and checked again by
/// `verifyUnchanged()`.
final class EvidenceDatabase {
    let path: String
    let sha256: String
    /// The write-ahead log or hot journal read with the database, and its SHA-256.
    let sidecar: (suffix: String, sha256: String)?
    let database: SQLiteConnection
    private let copyDirectory: String?
    /// What recovery did, when the database had a log or a hot journal: the file, what
    /// SQLite did with it in the private copy, and the rows before and after.
    private(set) var recovery: String?

    /// Opens the database at `path`.
    /// - Throws: `ImportError` naming the file when it cannot be read or is not SQLite.
    init(path: String) throws(ImportError) {
        self.path = path
        sha256 = try ArtifactFile.sha256(path: path)
        let suffix = Self.recoverySuffix(path)
        sidecar = try suffix.map { s throws(ImportError) in (s, try ArtifactFile.sha256(path: path + s)) }
        var copy: String?
        do {
            if let suffix {
                let dir = try Self.privateCopy(of: path, with: suffix)
                copy = dir
                database = try SQLiteConnection.open(dir + "/evidence.db", mode: .readWrite)
            } else {
                database = try SQLiteConnection.open(path, mode: .immutable)
            }
        } catch let e as SQLiteError {
            if let copy { TemporaryFiles.remove(copy) }
            throw ImportError(
                path: path, message: "is not a readable SQLite database (\(e)); nothing from this file was imported")
        } catch let e as ImportError {
            throw e
        } catch {
            if let copy { TemporaryFiles.remove(copy) }
            throw ImportError(path: path, message: "\(error)")
        }
        copyDirectory = copy
        if let suffix { recovery = describeRecovery(suffix: suffix) }
    }

    /// The sidecar SQLite would recover the database from: `-wal` when a non-empty
    /// write-ahead log lies beside it, `-journal` when a hot rollback journal does (one
    /// whose header a commit has not zeroed); nil when there is neither.
    static func recoverySuffix(_ path: String) -> String? {
        if size(path + "-wal") > 0 { return "-wal" }
        guard size(path + "-journal") >= 28, let handle = FileHandle(forReadingAtPath: path + "-journal") else {
            return nil
        }
        defer { try? handle.close() }
        let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
        let header = (try? handle.read(upToCount: 8)).map(Array.init) ?? []
        return header == magic ? "-journal" : nil
    }

    private static func size(_ path: String) -> Int {
        let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        return size?.intValue ?? 0
    }

    /// Copies the database and its sidecar to a private directory, as SQLite names them.
    private static func privateCopy(of path: String, with suffix: String) throws(ImportError) -> String {
        let dir: String
        do {
            dir = try TemporaryFiles.makeDirectory("evidence")
        } catch {
            throw ImportError(path: path, message: "\(error)")
        }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: dir + "/evidence.db")
            try FileManager.default.copyItem(atPath: path + suffix, toPath: dir + "/evidence.db" + suffix)
        } catch {
            TemporaryFiles.remove(dir)
            let what = suffix == "-wal" ? "write-ahead log" : "rollback journal"
            throw ImportError(
                path: path,
                message:
                    "cannot copy the database and its \(what) to a temporary directory: \(error.localizedDescription)")
        }
        return dir
    }

    /// What recovery did: the rows of each table in the database file alone (read
    /// immutable, as it lies) against those of the recovered copy.
    private func describeRecovery(suffix: String) -> String {
        let name = (path as NSString).lastPathComponent + suffix
        let after = Self.rowCounts(database)
        let before = (try? SQLiteConnection.open(path, mode: .immutable)).map(Self.rowCounts) ?? [:]
        let changed = Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
        let total = { (counts: [String: Int]) in counts.values.reduce(0, +) }
        let tables = changed.prefix(5).map { "\($0) \(before[$0] ?? 0) → \(after[$0] ?? 0)" }.joined(separator: ", ")
        let action =
            suffix == "-wal"
            ? "its committed transactions were replayed" : "its uncommitted changes were rolled back"
        return
            "\(name) was beside the database: \(action) in a private copy, as SQLite recovers it (the evidence is not written); rows \(total(before)) in the file alone, \(total(after)) after recovery"
            + (changed.isEmpty ? "" : " (\(tables)\(changed.count > 5 ? ", …" : ""))")
    }

    /// The number of rows of each table.
    private static func rowCounts(_ db: SQLiteConnection) -> [String: Int] {
        var out = [String: Int]()
        for table in ((try? db.tableNames()) ?? []).sorted() where !table.hasPrefix("sqlite_") {
            try? db.query("SELECT count(*) FROM \"\(table.replacingQuotes)\"") { row in
                out[table] = row.int(0).map(Int.init)
            }
        }
        return out
    }

    private init(path: String, sha256: String, database: SQLiteConnection) {
        self.path = path
        self.sha256 = sha256
        self.sidecar = nil
        self.database = database
        self.copyDirectory = nil
    }

    /// Opens the database at `path` as `init(path:)` does, and calls `body` with it while
    /// the file is hashed on another thread, so that what `body` reads first (a schema, a
    /// side table) costs no time of its own. A database with a write-ahead log is hashed
    /// and copied first, as `init(path:)` does, and `body` runs after.
    /// - Returns: the database, its hash taken, and what `body` returned or threw.
    /// - Throws: `ImportError` as `init(path:)` does.
    static func open<T>(
        path: String, whileHashing body: (SQLiteConnection) throws -> T
    ) throws(ImportError) -> (EvidenceDatabase, Result<T, any Error>) {
        guard recoverySuffix(path) == nil, (try? ArtifactFile.checkHashable(path: path)) != nil else {
            let evidence = try EvidenceDatabase(path: path)
            return (evidence, Result { try body(evidence.database) })
        }
        let hashing = BackgroundHash(path: path)
        var opened: (database: SQLiteConnection, result: Result<T, any Error>)?
        var failure: (any Error)?
        do {
            let database = try SQLiteConnection.open(path, mode: .immutable)
            opened = (database, Result { try body(database) })
        } catch {
            failure = error
        }
        let sha256 = try hashing.wait()
        guard let opened else {
            throw ImportError(
                path: path,
                message:
                    "is not a readable SQLite database (\(failure.map { "\($0)" } ?? "")); nothing from this file was imported"
            )
        }
        return (EvidenceDatabase(path: path, sha256: sha256, database: opened.database), opened.result)
    }

    deinit {
        if let copyDirectory { TemporaryFiles.remove(copyDirectory) }
    }

    /// Checks that the evidence still hashes as it did when opened.
    /// - Throws: `ImportError` if the file or its log changed.
    func verifyUnchanged() throws(ImportError) {
        guard try ArtifactFile.sha256(path: path) == sha256,
            try sidecar.map({ s throws(ImportError) in try ArtifactFile.sha256(path: path + s.suffix) })
                == sidecar?.sha256
        else {
            throw ImportError(
                path: path,
                message:
                    "changed while it was being read (its SHA-256 differs); nothing from this file was imported. Import from a copy that nothing writes to"
            )
        }
    }
}

@available(*, unavailable)
extension EvidenceDatabase: Sendable {}

/// A file's SHA-256, taken on a thread of its own.
private final class BackgroundHash: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the hashing thread before `done` is signalled; read after.
    private var result: Result<String, ImportError>?

    init(path: String) {
        Thread {
            self.result = Result { () throws(ImportError) -> String in try ArtifactFile.sha256(path: path) }
            self.done.signal()
        }.start()
    }

    /// The hash, once taken.
    func wait() throws(ImportError) -> String {
        done.wait()
        return try result!.get()
    }
}

import Dispatch
import Foundation

/// An SQLite database from an extraction, opened so that the evidence is never written.
///
/// Without a write-ahead log the file is opened in place, read-only and immutable. With a
/// non-empty `-wal` beside it, the database and its log are copied to a private temporary
/// directory and the copy is opened, so the log's committed transactions are read too.
/// The SHA-256 of the file (and of its log) is taken before opening and checked again by
/// `verifyUnchanged()`.
final class EvidenceDatabase {
    let path: String
    let sha256: String
    let walSHA256: String?
    let database: SQLiteDatabase
    private let copyDirectory: String?

    /// Opens the database at `path`.
    /// - Throws: `ImportError` naming the file when it cannot be read or is not SQLite.
    init(path: String) throws(ImportError) {
        self.path = path
        sha256 = try ArtifactFile.sha256(path: path)
        let wal = path + "-wal"
        walSHA256 = Self.hasLog(path) ? try ArtifactFile.sha256(path: wal) : nil
        do {
            if walSHA256 != nil {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "stackledger-evidence-\(UUID().uuidString)"
                ).path
                do {
                    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                    try FileManager.default.copyItem(atPath: path, toPath: dir + "/evidence.db")
                    try FileManager.default.copyItem(atPath: wal, toPath: dir + "/evidence.db-wal")
                } catch {
                    try? FileManager.default.removeItem(atPath: dir)
                    throw ImportError(
                        path: path,
                        message:
                            "cannot copy the database and its write-ahead log to a temporary directory: \(error.localizedDescription)"
                    )
                }
                copyDirectory = dir
                database = try SQLiteDatabase(copyPath: dir + "/evidence.db")
            } else {
                copyDirectory = nil
                database = try SQLiteDatabase(immutablePath: path)
            }
        } catch let e as SQLiteError {
            throw ImportError(
                path: path, message: "is not a readable SQLite database (\(e)); nothing from this file was imported")
        } catch let e as ImportError {
            throw e
        } catch {
            throw ImportError(path: path, message: "\(error)")
        }
    }

    /// Whether a non-empty write-ahead log lies beside the database at `path`.
    private static func hasLog(_ path: String) -> Bool {
        let size = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber
        return (size?.intValue ?? 0) > 0
    }

    private init(path: String, sha256: String, database: SQLiteDatabase) {
        self.path = path
        self.sha256 = sha256
        self.walSHA256 = nil
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
        path: String, whileHashing body: (SQLiteDatabase) throws -> T
    ) throws(ImportError) -> (EvidenceDatabase, Result<T, any Error>) {
        guard !hasLog(path), (try? ArtifactFile.checkHashable(path: path)) != nil else {
            let evidence = try EvidenceDatabase(path: path)
            return (evidence, Result { try body(evidence.database) })
        }
        let hashing = BackgroundHash(path: path)
        var opened: (database: SQLiteDatabase, result: Result<T, any Error>)?
        var failure: (any Error)?
        do {
            let database = try SQLiteDatabase(immutablePath: path)
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
        if let copyDirectory { try? FileManager.default.removeItem(atPath: copyDirectory) }
    }

    /// Checks that the evidence still hashes as it did when opened.
    /// - Throws: `ImportError` if the file or its log changed.
    func verifyUnchanged() throws(ImportError) {
        guard try ArtifactFile.sha256(path: path) == sha256,
            try walSHA256.map({ _ throws(ImportError) in try ArtifactFile.sha256(path: path + "-wal") }) == walSHA256
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

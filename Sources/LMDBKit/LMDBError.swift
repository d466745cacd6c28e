internal import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// An error reported by LMDB, keeping the C return code.
///
/// Match specific failures with the named members:
/// ```swift
/// do { try txn.put(...) } catch LMDBError.mapFull { ... }
/// ```
public struct LMDBError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The raw return code of the failing `mdb_*` call (an LMDB code or an `errno` value).
    public let code: Int32
    /// The LMDB function that failed, for the message.
    public let operation: String

    /// Creates an error for a return code.
    public init(code: Int32, operation: String = "") {
        self.code = code
        self.operation = operation
    }

    /// A readable description, as `mdb_strerror` gives it.
    public var description: String {
        let text = String(cString: mdb_strerror(code))
        return operation.isEmpty ? text : "\(operation): \(text)"
    }

    public static func == (lhs: LMDBError, rhs: LMDBError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Lets `catch LMDBError.mapFull` match any error with the same code.
    public static func ~= (pattern: LMDBError, value: any Error) -> Bool {
        (value as? LMDBError)?.code == pattern.code
    }

    /// `MDB_KEYEXIST`: the key/data pair already exists.
    public static let keyExists = LMDBError(code: MDB_KEYEXIST)
    /// `MDB_NOTFOUND`: no matching key/data pair.
    public static let notFound = LMDBError(code: MDB_NOTFOUND)
    /// `MDB_CORRUPTED`: a page has an unexpected type.
    public static let corrupted = LMDBError(code: MDB_CORRUPTED)
    /// `MDB_PAGE_NOTFOUND`: a requested page was not found.
    public static let pageNotFound = LMDBError(code: MDB_PAGE_NOTFOUND)
    /// `MDB_PANIC`: a fatal error occurred earlier and the environment must be closed.
    public static let panic = LMDBError(code: MDB_PANIC)
    /// `MDB_VERSION_MISMATCH`: the environment was written by another LMDB version.
    public static let versionMismatch = LMDBError(code: MDB_VERSION_MISMATCH)
    /// `MDB_INVALID`: the file is not an LMDB data file.
    public static let invalid = LMDBError(code: MDB_INVALID)
    /// `MDB_MAP_FULL`: the environment's map size was reached.
    public static let mapFull = LMDBError(code: MDB_MAP_FULL)
    /// `MDB_DBS_FULL`: the maximum number of named databases was reached.
    public static let databasesFull = LMDBError(code: MDB_DBS_FULL)
    /// `MDB_READERS_FULL`: the maximum number of readers was reached.
    public static let readersFull = LMDBError(code: MDB_READERS_FULL)
    /// `MDB_TXN_FULL`: the transaction has too many dirty pages.
    public static let transactionFull = LMDBError(code: MDB_TXN_FULL)
    /// `MDB_MAP_RESIZED`: another process grew the map beyond this one's size.
    public static let mapResized = LMDBError(code: MDB_MAP_RESIZED)
    /// `MDB_INCOMPATIBLE`: the database's flags differ from those requested.
    public static let incompatible = LMDBError(code: MDB_INCOMPATIBLE)
    /// `MDB_BAD_VALSIZE`: a key or value of an unsupported size.
    public static let badValueSize = LMDBError(code: MDB_BAD_VALSIZE)
    /// `ENOSPC`: the disk is full.
    public static let noSpace = LMDBError(code: ENOSPC)
    /// `EACCES`: permission denied.
    public static let accessDenied = LMDBError(code: EACCES)
    /// `EROFS`: read-only file system.
    public static let readOnlyFileSystem = LMDBError(code: EROFS)
}

@inline(__always)
func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
    if rc != 0 { throw LMDBError(code: rc, operation: operation()) }
}

internal import CSQLite

/// A connection to an SQLite database through the system library: the one seam between
/// StackLedger and SQLite, for reading evidence (Importers) and writing exports (Exports).
///
/// A connection is made by `open(_:mode:)`, which checks the file before handing it out;
/// the connection owns its handle from then on and closes it once, when it goes away, with
/// the statements it prepared. Errors carry SQLite's result code (`SQLiteError`).
///
/// The pattern is GRDB.swift's (a connection that owns its handle, statements prepared
/// once, errors with the result code), kept as this small module rather than GRDB itself,
/// by measurement (`tools/bench-sqlite`, docs/performance.md "Dependencies weighed"): GRDB
/// 7.10.0's row cursor reads the knowledgeC importer's query 1.14 times as slowly (+3 % of
/// the whole import), the importers read column bytes into a shared string cache that GRDB's
/// decoding would copy first, and GRDB's pools, records, migrations and observation would
/// go unused while every CI run built them from scratch.
package final class SQLiteConnection {
    /// How a database is opened.
    package enum Mode: Sendable {
        /// Read-only with the URI parameter `immutable=1`: SQLite takes no lock and writes
        /// nothing (no journal, no `-shm`). For evidence without a write-ahead log.
        case immutable
        /// Read-write, so that SQLite applies a write-ahead log or rolls back a hot journal:
        /// for a private copy of evidence, never for the evidence itself.
        case readWrite
        /// Created if missing, read-write, for one writer (an export).
        case create
    }

    private let handle: OpaquePointer
    /// Statements prepared by `run`, kept for the next call with the same SQL.
    private var statements: [String: OpaquePointer] = [:]

    private init(handle: OpaquePointer) { self.handle = handle }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Opens the database at `path`. A database to read is checked by reading its schema,
    /// the first moment a file that is not a database is noticed.
    /// - Throws: `SQLiteError` when the file cannot be opened or is not an SQLite database.
    package static func open(_ path: String, mode: Mode) throws(SQLiteError) -> SQLiteConnection {
        _ = configured
        var db: OpaquePointer?
        // One thread at a time uses a connection: no mutex on every call.
        let rc: Int32
        switch mode {
        case .immutable:
            rc = sqlite3_open_v2(uri(path) + "?immutable=1", &db, SQLITE_OPEN_READONLY | flags, nil)
        case .readWrite:
            rc = sqlite3_open_v2(uri(path), &db, SQLITE_OPEN_READWRITE | flags, nil)
        case .create:
            rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message)
        }
        // From here on the connection owns the handle: a failed check closes it once.
        let connection = SQLiteConnection(handle: db)
        if mode != .create { _ = try connection.tableNames() }
        return connection
    }

    private static let flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI

    /// `path` as a `file:` URI, its `?`, `#` and `%` escaped.
    private static func uri(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"):
                uri += "%" + String(byte, radix: 16, uppercase: true)
            default: uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri
    }

    /// SQLite's process-wide settings, made once before the first connection: no memory
    /// statistics (their mutex is taken by every allocation).
    private static let configured: Void = { _ = csqlite_disable_memory_statistics() }()

    /// The names of the tables in the schema.
    package func tableNames() throws(SQLiteError) -> Set<String> {
        var names = Set<String>()
        try query("SELECT name FROM sqlite_master WHERE type = 'table'") { row in
            if let n = row.text(0) { names.insert(n) }
        }
        return names
    }

    /// The columns of `table`, in schema order.
    package func columns(of table: String) throws(SQLiteError) -> [String] {
        var names = [String]()
        try query("PRAGMA table_info(\"\(table.replacingQuotes)\")") { row in
            if let n = row.text(1) { names.append(n) }
        }
        return names
    }

    /// Runs `sql`, calling `body` with each row.
    package func query(_ sql: String, _ body: (SQLiteRow) throws(SQLiteError) -> Void) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, "in \(sql.prefix(60))") }
        defer { sqlite3_finalize(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw error(step, "in \(sql.prefix(60))") }
            try body(SQLiteRow(statement: statement))
        }
    }

    /// Runs SQL without parameters (schema, pragmas, transactions), several statements at once.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: "\(text) (in \(sql.prefix(60)))")
        }
    }

    /// Runs `sql` (prepared once, reused) with `values` bound in order; returns the row id
    /// of an inserted row.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLValue]) throws(SQLiteError) -> Int64 {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let slot = Int32(index + 1)
            let rc: Int32
            switch value {
            case .text(let s): rc = sqlite3_bind_text(statement, slot, s, -1, Self.transient)
            case .integer(let n): rc = sqlite3_bind_int64(statement, slot, n)
            case .real(let d): rc = sqlite3_bind_double(statement, slot, d)
            case .null: rc = sqlite3_bind_null(statement, slot)
            }
            guard rc == SQLITE_OK else { throw error(rc, "binding value \(slot) of \(sql.prefix(60))") }
        }
        let step = sqlite3_step(statement)
        guard step == SQLITE_DONE else { throw error(step, "writing a row with \(sql.prefix(60))") }
        return sqlite3_last_insert_rowid(handle)
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, "preparing \(sql.prefix(60))") }
        statements[sql] = statement
        return statement
    }

    private func error(_ rc: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), context: context)
    }

    /// SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}

import CSQLite

/// A value bound to a statement's parameter.
package enum SQLValue: Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null

    /// Text, or NULL for nil.
    package static func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
}

/// Why a database could not be written.
package struct SQLiteWriteError: Error, CustomStringConvertible {
    package var description: String
}

/// Writes a new SQLite database through the system library: statements prepared once and
/// run with bound values, all inside one transaction.
package final class SQLiteWriter {
    private var db: OpaquePointer?
    private var statements = [String: OpaquePointer]()

    /// Opens (creating) the database at `path`, for one writer: no journal is kept, since
    /// the file is a temporary one renamed into place once complete.
    package init(path: String) throws(SQLiteWriteError) {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            db = nil
            throw SQLiteWriteError(description: "cannot create the database: \(message)")
        }
        try execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(db)
    }

    /// Runs SQL without parameters (schema, transactions).
    package func execute(_ sql: String) throws(SQLiteWriteError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw SQLiteWriteError(description: "\(text) (in \(sql.prefix(60)))")
        }
    }

    /// Runs `sql` (prepared once, reused) with `values` bound in order; returns the row id
    /// of an inserted row.
    @discardableResult
    package func run(_ sql: String, _ values: [SQLValue]) throws(SQLiteWriteError) -> Int64 {
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
            guard rc == SQLITE_OK else { throw error("cannot bind a value") }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw error("cannot write a row") }
        return sqlite3_last_insert_rowid(db)
    }

    private func prepared(_ sql: String) throws(SQLiteWriteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("cannot prepare \(sql.prefix(60))")
        }
        statements[sql] = statement
        return statement
    }

    private func error(_ what: String) -> SQLiteWriteError {
        SQLiteWriteError(description: "\(what): \(String(cString: sqlite3_errmsg(db)))")
    }

    /// SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

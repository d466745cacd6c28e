internal import CSQLite

/// An SQLite failure: SQLite's result code, its message, and what was being done.
package struct SQLiteError: Error, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_NOTADB` is 26).
    package var code: Int32
    /// SQLite's message.
    package var message: String
    /// What was being done (`in SELECT ...`), when known.
    package var context: String?

    /// An error with SQLite's code and message.
    package init(code: Int32, message: String, context: String? = nil) {
        (self.code, self.message, self.context) = (code, message, context)
    }

    package var description: String {
        "\(message) (SQLite code \(code)\(context.map { ", \($0)" } ?? ""))"
    }
}

/// A value bound to a statement's parameter.
package enum SQLValue: Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null

    /// Text, or NULL for nil.
    package static func text(_ s: String?) -> SQLValue { s.map { .text($0) } ?? .null }
}

/// One row of a result, valid only inside the `query` callback.
package struct SQLiteRow {
    /// The statement stepped onto the row (for readers that look at columns' types).
    package let statement: OpaquePointer

    /// Whether column `i` is NULL.
    package func isNull(_ i: Int32) -> Bool { sqlite3_column_type(statement, i) == SQLITE_NULL }

    /// Column `i` as text, nil when NULL; bytes that are not UTF-8 are repaired.
    package func text(_ i: Int32) -> String? {
        guard let p = sqlite3_column_text(statement, i) else { return nil }
        let n = Int(sqlite3_column_bytes(statement, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Column `i` as a double, nil when NULL.
    package func double(_ i: Int32) -> Double? { isNull(i) ? nil : sqlite3_column_double(statement, i) }

    /// Column `i` as an integer, nil when NULL.
    package func int(_ i: Int32) -> Int64? { isNull(i) ? nil : sqlite3_column_int64(statement, i) }

    /// Column `i` as bytes, nil when NULL.
    package func blob(_ i: Int32) -> [UInt8]? {
        guard !isNull(i) else { return nil }
        let n = Int(sqlite3_column_bytes(statement, i))
        guard n > 0, let p = sqlite3_column_blob(statement, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}

extension String {
    /// The string with each `"` doubled, for an SQL identifier in double quotes.
    package var replacingQuotes: String {
        var out = ""
        for c in self { out += c == "\"" ? "\"\"" : String(c) }
        return out
    }
}

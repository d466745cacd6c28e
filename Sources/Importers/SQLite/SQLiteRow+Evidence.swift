internal import CSQLite
import SQLiteKit
import SmartStack

/// What the importers read from evidence rows beyond `SQLiteRow`'s columns: strings shared
/// through a cache, and columns checked for the kind of value a row must hold.
extension SQLiteRow {
    /// Column `i` as text, nil when NULL; a value seen recently comes from `cache` (the
    /// same string object). Bytes that are not UTF-8 are repaired as `text(_:)` does.
    func text(_ i: Int32, cache: StringCache) -> String? {
        guard let p = sqlite3_column_text(statement, i) else { return nil }
        let raw = UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, i)))
        return cache.string(raw) ?? String(decoding: raw, as: UTF8.self)
    }

    /// Column `i` as text, nil when NULL; a value seen recently comes from `cache`. A BLOB,
    /// or text that is not UTF-8, gives nil and sets `wrongKind` (`mismatch` says more).
    @inline(__always)
    func text(_ i: Int32, cache: StringCache?, wrongKind: inout Bool) -> String? {
        let type = sqlite3_column_type(statement, i)
        if type == SQLITE_NULL { return nil }
        guard type != SQLITE_BLOB, let s = validText(i, cache: cache) else {
            wrongKind = true
            return nil
        }
        return s
    }

    /// Column `i` as a number, nil when NULL; text or a BLOB gives nil and sets `wrongKind`.
    @inline(__always)
    func double(_ i: Int32, wrongKind: inout Bool) -> Double? {
        let type = sqlite3_column_type(statement, i)
        if type == SQLITE_INTEGER || type == SQLITE_FLOAT { return sqlite3_column_double(statement, i) }
        if type != SQLITE_NULL { wrongKind = true }
        return nil
    }

    /// Column `i` as an integer, nil when NULL; text, a BLOB or a number with a fraction
    /// gives nil and sets `wrongKind`.
    @inline(__always)
    func int(_ i: Int32, wrongKind: inout Bool) -> Int64? {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, i)
        case SQLITE_NULL: return nil
        case SQLITE_FLOAT:
            if let v = SQLiteRow.integral(sqlite3_column_double(statement, i)) { return v }
            wrongKind = true
            return nil
        default:
            wrongKind = true
            return nil
        }
    }

    /// What a column must hold for its row to be read; NULL fits every kind.
    enum Kind {
        /// UTF-8 text (a number, as SQLite writes it, will do).
        case text
        /// An integer or a real.
        case number
        /// An integer, or a real without a fraction.
        case integer
        /// Either an integer (or a real without a fraction) or UTF-8 text.
        case integerOrText
    }

    /// The first of `columns` (its place in the row, name and kind) whose value is of
    /// another kind, in words (`date holds the text "x", not a number`); nil when every
    /// one fits. SQLite would read text as the number 0 and repair text that is not UTF-8.
    func mismatch(_ columns: [(Int32, String, Kind)]) -> String? {
        for (i, name, kind) in columns {
            let type = sqlite3_column_type(statement, i)
            switch (type, kind) {
            case (SQLITE_NULL, _): continue
            case (SQLITE_BLOB, .text): return "\(name) holds a BLOB, not text"
            case (SQLITE_TEXT, .text), (SQLITE_TEXT, .integerOrText):
                if validText(i, cache: nil) == nil { return "\(name) holds text that is not valid UTF-8" }
            case (SQLITE_INTEGER, .text), (SQLITE_FLOAT, .text), (SQLITE_INTEGER, _), (SQLITE_FLOAT, .number): continue
            case (SQLITE_FLOAT, _):
                let d = sqlite3_column_double(statement, i)
                if SQLiteRow.integral(d) == nil { return "\(name) holds \(d), not an integer" }
            default:
                return "\(name) holds \(describe(i)), not \(kind == .number ? "a number" : "an integer")"
            }
        }
        return nil
    }

    /// Whether the row's columns hold what `columns` says; if not, the row is rejected as
    /// `table`'s row at `locator`, naming the column.
    func fits(
        _ columns: [(Int32, String, Kind)], rejectingAt locator: Locator, of table: String, into sink: inout EventSink
    ) -> Bool {
        guard let problem = mismatch(columns) else { return true }
        sink.reject(locator, "\(table) row: \(problem)")
        return false
    }

    /// Column `i` as it is written, an integer's digits or text; nil when NULL or empty.
    func integerOrText(_ i: Int32) -> String? {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return String(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT:
            let d = sqlite3_column_double(statement, i)
            return SQLiteRow.integral(d).map { String($0) } ?? String(d)
        default: return text(i).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// Column `i`'s text when it is UTF-8 (from `cache` when seen recently); nil otherwise.
    private func validText(_ i: Int32, cache: StringCache?) -> String? {
        guard let p = sqlite3_column_text(statement, i) else { return nil }
        let raw = UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(statement, i)))
        return cache?.string(raw) ?? String(validating: raw, as: UTF8.self)
    }

    /// `d` as an integer when it has no fraction and fits one.
    private static func integral(_ d: Double) -> Int64? {
        d.rounded() == d && abs(d) < 9.2e18 ? Int64(d) : nil
    }

    /// What a text or BLOB column holds, for a message: the text (cut at 40 characters)
    /// or the BLOB's size.
    private func describe(_ i: Int32) -> String {
        if sqlite3_column_type(statement, i) == SQLITE_BLOB {
            return "a BLOB of \(sqlite3_column_bytes(statement, i)) bytes"
        }
        return SQLiteRow.quoted(text(i) ?? "")
    }

    /// `s` quoted for a message, cut at 40 characters: `the text "…"`.
    static func quoted(_ s: String) -> String {
        "the text \"\(s.count > 40 ? s.prefix(40) + "…" : s[...])\""
    }
}

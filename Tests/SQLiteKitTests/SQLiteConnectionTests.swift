import Foundation
import SQLiteKit
import StackLedgerTesting
import Testing

/// The seam to SQLite: a connection checks the file before it is handed out, owns its
/// handle from then on, and every failure carries SQLite's result code.
@Suite("SQLite connections")
struct SQLiteConnectionTests {
    @Test("a file that is not a database is refused with SQLITE_NOTADB, in every mode that reads")
    func notADatabase() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = try dir.write("not.db", String(repeating: "not a database ", count: 100))
        for mode in [SQLiteConnection.Mode.immutable, .readWrite] {
            // Opening many in a row: a handle closed twice would corrupt the allocator long before.
            for _ in 0..<200 {
                #expect(throws: SQLiteError.self) { _ = try SQLiteConnection.open(path, mode: mode) }
            }
            do {
                _ = try SQLiteConnection.open(path, mode: mode)
            } catch {
                #expect(error.code == 26, "\(error)")
                #expect(error.description.contains("SQLite code 26"), "\(error)")
            }
        }
    }

    @Test("a database written through `run` reads back through `query`; a broken constraint names its code")
    func writeThenRead() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = dir.file("out.db")
        do {
            let db = try SQLiteConnection.open(path, mode: .create)
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL)")
            #expect(
                try db.run("INSERT INTO t (name, score) VALUES (?, ?)", [.text("a \"quoted\" name"), .real(0.5)]) == 1)
            #expect(try db.run("INSERT INTO t (name, score) VALUES (?, ?)", [.text("b"), .null]) == 2)
            do {
                try db.run("INSERT INTO t (name, score) VALUES (?, ?)", [.null, .integer(3)])
                Issue.record("a NULL name was written")
            } catch {
                #expect(error.code == 19, "\(error)") // SQLITE_CONSTRAINT
            }
        }
        let db = try SQLiteConnection.open(path, mode: .immutable)
        #expect(try db.tableNames() == ["t"])
        #expect(try db.columns(of: "t") == ["id", "name", "score"])
        var rows = [String]()
        try db.query("SELECT id, name, score FROM t ORDER BY id") { row in
            rows.append("\(row.int(0)!) \(row.text(1)!) \(row.double(2).map { "\($0)" } ?? "NULL")")
        }
        #expect(rows == ["1 a \"quoted\" name 0.5", "2 b NULL"])
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t (name) VALUES ('c')") }
    }
}

import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// A database beside a hot rollback journal (its writer died mid-transaction, or the file
/// was copied then) is read as SQLite reads it after recovery: the committed rows only.
@Suite("Hot rollback journals")
struct HotJournalTests {
    /// Writes `knowledgeC.db` with two committed rows, then changes one row and deletes the
    /// other in a transaction (journal_mode=delete, a one-page cache so the changed pages
    /// reach the file) and dies before committing, leaving the hot journal beside it.
    static func makeEvidence(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/knowledgeC.db"
        let script = """
            import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode=delete")
            c.executescript(sys.stdin.read())
            c.execute("PRAGMA cache_size=1")
            c.execute("BEGIN")
            c.execute("UPDATE ZOBJECT SET ZVALUESTRING = 'com.example.uncommitted' WHERE Z_PK = 1")
            c.execute("DELETE FROM ZOBJECT WHERE Z_PK = 2")
            c.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZSECONDSFROMGMT) SELECT 100 + i, '/app/inFocus', 'com.example.uncommitted', 816854400, 0 FROM n")
            c.execute("UPDATE ZSOURCE SET ZBUNDLEID = ZBUNDLEID")
            os.kill(os.getpid(), 9)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        let rows = """
            INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT) VALUES (1, '/app/inFocus', 'com.example.first', 816854400, 816854460, 0);
            INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZENDDATE, ZSECONDSFROMGMT) VALUES (2, '/app/inFocus', 'com.example.second', 816854500, 816854560, 0);
            """
        input.fileHandleForWriting.write(Data((KnowledgeCFixture.schema + rows).utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return path
    }

    @Test("the journal is rolled back in a private copy: committed rows imported, the report says so, no file changes")
    func rolledBack() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let path = try Self.makeEvidence(in: s.path + "/evidence")
        let journal = try #require(FileManager.default.contents(atPath: path + "-journal"))
        #expect(journal.prefix(8) == Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]))
        // Read as the file lies (journal ignored), the uncommitted change is there.
        let raw = try sqlite3(path, "SELECT ZVALUESTRING FROM ZOBJECT WHERE Z_PK = 1")
        #expect(raw == "com.example.uncommitted")
        let hashes = (try sha256(path), try sha256(path + "-journal"))
        let listing = try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence").sorted()
        let ledger = try s.ledger()
        var options = ImportRun.Options()
        options.root = s.path
        let report = try ImportRun(format: .knowledgec, options: options).run(path: path, into: ledger)[0]
        #expect(report.error == nil)
        #expect(try ledger.storedEvents().map(\.envelope.app) == ["com.example.first", "com.example.second"])
        let note = try #require(report.problems.first { $0.contains("knowledgeC.db-journal") })
        #expect(note.contains("rolled back") && note.contains("ZOBJECT 4 → 2"), "\(note)")
        #expect(try sha256(path) == hashes.0 && sha256(path + "-journal") == hashes.1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.path + "/evidence").sorted() == listing)
        // The sqlite3 shell, the real consumer, rolls the journal back the same way on a copy.
        try FileManager.default.createDirectory(atPath: s.path + "/shell", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: s.path + "/shell/k.db")
        try FileManager.default.copyItem(atPath: path + "-journal", toPath: s.path + "/shell/k.db-journal")
        #expect(
            try sqlite3(
                s.path + "/shell/k.db", "SELECT group_concat(ZVALUESTRING) FROM ZOBJECT ORDER BY Z_PK",
                recovering: true)
                == "com.example.first,com.example.second")
    }

    @Test("a journal whose header a commit zeroed is not hot: the file is read in place, with no note")
    func persistedJournalIsNotHot() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let folder = s.path + "/evidence"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/knowledgeC.db"
        try sqlite3Write(
            path,
            KnowledgeCFixture.schema
                + "INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZVALUESTRING, ZSTARTDATE, ZSECONDSFROMGMT) VALUES (1, '/app/inFocus', 'com.example.first', 816854400, 0);"
        )
        try Data(repeating: 0, count: 512).write(to: URL(fileURLWithPath: path + "-journal"))
        let ledger = try s.ledger()
        let report = try ImportRun(format: .knowledgec, options: ImportRun.Options()).run(path: path, into: ledger)[0]
        #expect(report.imported == 1)
        #expect(!report.problems.contains { $0.contains("journal") })
    }
}

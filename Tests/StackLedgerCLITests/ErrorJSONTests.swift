import Foundation
import StackLedgerTesting
import Testing

/// With `--json`, a failure ends standard error with one JSON line: the exit code, the
/// message and the input's lines at fault (docs/queries.md, "Errors as JSON").
@Suite("Errors as JSON")
struct ErrorJSONTests {
    static func errorObject(_ stderr: String) throws -> [String: Any] {
        let last = try #require(stderr.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return try #require(object["error"] as? [String: Any])
    }

    @Test(
        "a rejected ingest names each line at fault with its field; a usage error and a missing store have their exit")
    func failures() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write(
            "bad.ndjson",
            #"{"type":"app.foreground","time":"2026-05-04T05:00:00Z","app":"a"}"# + "\n"
                + #"{"type":"app.foreground","time":"2026-05-04T05:00:00","app":"a"}"# + "\n")
        let rejected = try CLI.run(["ingest", "--store", dir.store, "--json", input])
        #expect(rejected.status == 65)
        let error = try Self.errorObject(rejected.stderr)
        #expect(error["exit"] as? Int == 65)
        #expect((error["message"] as? String)?.contains("nothing was stored") == true)
        let problems = try #require(error["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["line"] as? Int == 2 && problems.first?["field"] as? String == "time")
        #expect(problems.first?["file"] as? String == input)

        let usage = try CLI.run(["state", "--store", dir.store, "--at", "yesterday", "--json"])
        #expect(usage.status == 64)
        #expect(try Self.errorObject(usage.stderr)["exit"] as? Int == 64)
        let missing = try CLI.run(["state", "--store", dir.file("none"), "--at", "2026-05-04T05:00:00Z", "--json"])
        #expect(missing.status == 74)
        #expect((try Self.errorObject(missing.stderr)["message"] as? String)?.contains("no store at") == true)

        // Without --json, the message alone.
        let plain = try CLI.run(["ingest", "--store", dir.store, input])
        #expect(plain.status == 65 && !plain.stderr.contains(#"{"error""#))
    }
}

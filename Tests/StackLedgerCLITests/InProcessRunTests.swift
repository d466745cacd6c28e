import Foundation
import StackLedgerTesting
import Testing

@Suite("the command run in-process")
struct InProcessRunTests {
    @Test("an in-process run writes what the executable writes, byte for byte: an answer, a usage error, a JSON error")
    func sameAsExecutable() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let log = Fixtures.path("scenarios/cards-day.ndjson")
        #expect(try CLI.run(["ingest", "--store", dir.store, log]).status == 0)
        let questions: [[String]] = [
            ["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--json"],
            ["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1"],
            ["state", "--store", dir.store, "--at", "2026-03-02T10:20:00Z"],
            ["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "nope", "--json"],
            ["state", "--store", dir.store, "--at", "yesterday"],
            ["replay", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z"],
            ["why", "--help"], ["--version"],
        ]
        for question in questions {
            let inProcess = CLI.call(question)
            let executable = try CLI.run(question)
            #expect(inProcess.status == executable.status, "\(question)")
            #expect(inProcess.stdout == executable.stdout, "\(question)")
            #expect(inProcess.stderr == executable.stderr, "\(question)")
        }
        #expect(CLI.call(["state", "--store", dir.store, "--at", "yesterday"]).status == 64)
        #expect(
            CLI.call(["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "nope", "--json"]).stderr
                .contains(#"{"error":{"exit":64"#))
    }

    @Test("runs side by side keep their answers and their failures apart")
    func sideBySide() async throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let good = ["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--json"]
        let bad = ["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "nope", "--json"]
        let expected = (CLI.call(good), CLI.call(bad))
        let runs = await withTaskGroup(of: (Bool, CLI.Result).self) { group in
            for k in 0..<16 {
                group.addTask { (k % 2 == 0, CLI.call(k % 2 == 0 ? good : bad)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (isGood, r) in runs {
            let e = isGood ? expected.0 : expected.1
            #expect(r.status == e.status)
            #expect(r.stdout == e.stdout)
            #expect(r.stderr == e.stderr)
        }
        #expect(expected.0.status == 0 && expected.1.status == 64)
    }
}

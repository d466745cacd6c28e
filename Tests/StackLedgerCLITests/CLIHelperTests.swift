import Foundation
import Testing

@Suite("The test helper that runs commands")
struct CLIHelperTests {
    @Test("a child that writes more than a pipe holds to stderr and stdout at once is read to its end")
    func largeOutputOnBothStreams() throws {
        let r = try CLI.run(
            executable: "/bin/sh",
            ["-c", "head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o; cat"],
            stdin: String(repeating: "i", count: 200_000))
        #expect(r.status == 0)
        #expect(r.stderr.utf8.count == 300_000)
        #expect(r.stdout.utf8.count == 500_000)
    }
}

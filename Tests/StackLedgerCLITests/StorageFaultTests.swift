import Foundation
import StackLedgerTesting
import Testing

/// Storage that fails under the store: a full disk, a read-only filesystem. Where the
/// machine lets the tests mount a small tmpfs they use one; otherwise a file-size limit
/// (`ulimit -f`, with SIGXFSZ ignored) makes the writes fail the same way.
@Suite("Storage faults", .serialized)
struct StorageFaultTests {
    /// A small tmpfs at a fresh directory, or nil when mounting is not allowed.
    func mountTmpfs(_ dir: String, megabytes: Int) -> Bool {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return shell("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(dir)' 2>/dev/null").status == 0
    }

    @discardableResult
    func shell(_ command: String) -> CLI.Result {
        (try? CLI.run(executable: "/bin/sh", ["-c", command])) ?? CLI.Result(status: -1, stdout: "", stderr: "cannot run /bin/sh")
    }

    @Test("a full disk: the ingest fails cleanly (exit 74), the store verifies and keeps whole batches, a later ingest completes it")
    func diskFull() throws {
        let dir = WorkDirectory()
        defer { shell("umount '\(dir.path)/disk' 2>/dev/null"); dir.cleanup() }
        let text = workload(30_000, seed: 5)
        let input = try dir.write("w.ndjson", text)
        let disk = dir.path + "/disk"
        let mounted = mountTmpfs(disk, megabytes: 4)
        let store = disk + "/store"
        let failed: CLI.Result
        if mounted {
            failed = try CLI.run(["ingest", "--store", store, "--batch-size", "500", input])
        } else {
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            failed = shell("trap '' XFSZ; ulimit -f 4096; exec '\(CLI.executable)' ingest --store '\(store)' --batch-size 500 '\(input)'")
        }
        #expect(failed.status == 74, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stderr.contains("full") && failed.stderr.contains("run again"), "\(failed.stderr)")
        if mounted { shell("mount -o remount,size=256m '\(disk)'") }
        let verify = try CLI.run(["verify", "--store", store])
        if verify.status != 74 || !verify.stderr.contains("no StackLedger store") {
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            let kept = try CLI.run(["export", "events", "--store", store]).stdout.split(separator: "\n")
            #expect(kept.count % 500 == 0)
            #expect(kept.map(String.init) == Array(text.split(separator: "\n").map(String.init).prefix(kept.count)))
        }
        let again = try CLI.run(["ingest", "--store", store, input])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CLI.run(["export", "events", "--store", store]).stdout == text)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
    }

    @Test("a store on a read-only filesystem: ingest fails with a clear error and nothing changes; queries still answer")
    func readOnlyFilesystem() throws {
        let dir = WorkDirectory()
        defer { shell("umount '\(dir.path)/disk' 2>/dev/null"); dir.cleanup() }
        let disk = dir.path + "/disk"
        guard mountTmpfs(disk, megabytes: 64) else { return } // needs a mount; the permission case below covers the rest
        let store = disk + "/store"
        #expect(try CLI.run(["ingest", "--store", store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let before = try CLI.run(["export", "events", "--store", store]).stdout
        shell("mount -o remount,ro '\(disk)'")
        let ingest = try CLI.run(["ingest", "--store", store, Fixtures.path("scenarios/calendar-suggestion.ndjson")])
        #expect(ingest.status == 74)
        #expect(ingest.stderr.contains("read-only") || ingest.stderr.contains("Read-only"), "\(ingest.stderr)")
        let exported = try CLI.run(["export", "events", "--store", store])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == before)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
    }

    @Test("a writer killed while it holds the write lock: the next writer proceeds")
    func deadWritersLock() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(20_000, seed: 3))
        #expect(try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        for delay in [0.05, 0.15, 0.3] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CLI.executable)
            p.arguments = ["ingest", "--store", dir.store, "--batch-size", "50", input]
            p.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": dir.path]) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let next = try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/watch-workout.ndjson")])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(try CLI.run(["verify", "--store", dir.store]).status == 0)
        }
    }
}

import Foundation
import StackLedgerTesting
import Testing

/// Storage that fails under the store: a full disk, a read-only filesystem. Where the
/// machine lets the tests mount a small tmpfs they use one; otherwise a file-size limit
/// (`ulimit -f`, with SIGXFSZ ignored) makes the writes fail the same way.
@Suite("Storage faults", .serialized)
struct StorageFaultTests {
    /// A small tmpfs at a fresh directory, or nil when mounting is not allowed.
    func mountTmpfs(_ dir: String, megabytes: Int) throws -> Bool {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return try shell("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(dir)' 2>/dev/null").status == 0
    }

    /// Runs `command` with /bin/sh; not being able to run the shell fails the test.
    @discardableResult
    func shell(_ command: String) throws -> CLI.Result {
        try CLI.run(executable: "/bin/sh", ["-c", command])
    }

    /// Unmounts what a test mounted: cleanup after the test's own checks, so it is best effort.
    func unmount(_ dir: String) {
        _ = try? shell("umount '\(dir)' 2>/dev/null")
    }

    @Test(
        "a full disk: the ingest fails cleanly (exit 74), the store verifies and keeps whole batches, a later ingest completes it"
    )
    func diskFull() throws {
        let dir = WorkDirectory()
        defer {
            unmount(dir.path + "/disk")
            dir.cleanup()
        }
        let text = workload(30_000, seed: 5)
        let input = try dir.write("w.ndjson", text)
        let disk = dir.path + "/disk"
        let mounted = try mountTmpfs(disk, megabytes: 4)
        let store = disk + "/store"
        let failed: CLI.Result
        if mounted {
            failed = try CLI.run(["ingest", "--store", store, "--batch-size", "500", input])
        } else {
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            failed = try shell(
                "trap '' XFSZ; ulimit -f 4096; exec '\(CLI.executable)' ingest --store '\(store)' --batch-size 500 '\(input)'"
            )
        }
        #expect(failed.status == 74, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stderr.contains("full") && failed.stderr.contains("run again"), "\(failed.stderr)")
        if mounted { try shell("mount -o remount,size=256m '\(disk)'") }
        let verify = try CLI.run(["verify", "--store", store])
        if verify.status != 74 || !verify.stderr.contains("no StackLedger store") {
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            let kept = try CLI.run(["export", "events", "--store", store]).stdout.split(separator: "\n")
            #expect(kept.count % 500 == 0)
            let keptLines: [String] = kept.map { String($0) }
            let written: [String] = text.split(separator: "\n").map { String($0) }
            #expect(keptLines == Array(written.prefix(kept.count)))
        }
        let again = try CLI.run(["ingest", "--store", store, input])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CLI.run(["export", "events", "--store", store]).stdout == text)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
    }

    /// Whether this process may mount a tmpfs (root, or a container that allows it).
    static let canMount: Bool = {
        // A probe, not a test: any failure here means "no mount", and the test shows as skipped.
        let probe = NSTemporaryDirectory() + "stackledger-mount-probe-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: probe) }
            guard
                try CLI.run(executable: "/bin/sh", ["-c", "mount -t tmpfs -o size=1m tmpfs '\(probe)' 2>/dev/null"])
                    .status == 0
            else { return false }
            return try CLI.run(executable: "/bin/sh", ["-c", "umount '\(probe)'"]).status == 0
        } catch {
            return false
        }
    }()

    @Test(
        "a store on a read-only filesystem: ingest fails with a clear error and nothing changes; queries still answer",
        .enabled(if: StorageFaultTests.canMount, "needs permission to mount a tmpfs (run as root)"))
    func readOnlyFilesystem() throws {
        let dir = WorkDirectory()
        defer {
            unmount(dir.path + "/disk")
            dir.cleanup()
        }
        let disk = dir.path + "/disk"
        try #require(try mountTmpfs(disk, megabytes: 64), "mounting a tmpfs failed")
        let store = disk + "/store"
        #expect(try CLI.run(["ingest", "--store", store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let before = try CLI.run(["export", "events", "--store", store]).stdout
        try shell("mount -o remount,ro '\(disk)'")
        let ingest = try CLI.run(["ingest", "--store", store, Fixtures.path("scenarios/calendar-suggestion.ndjson")])
        #expect(ingest.status == 74)
        #expect(ingest.stderr.contains("read-only") || ingest.stderr.contains("Read-only"), "\(ingest.stderr)")
        let exported = try CLI.run(["export", "events", "--store", store])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == before)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
    }

    @Test(
        "a full disk under imports: a small file's commit fails (exit 74), an extraction's pages written in place fault and end it (exit 74) with a clear line; the store as it was; a later import completes it",
        .enabled(if: StorageFaultTests.canMount, "needs permission to mount a tmpfs (run as root)"))
    func importsOntoFullDisk() throws {
        let dir = WorkDirectory()
        defer {
            unmount(dir.path + "/disk")
            dir.cleanup()
        }
        let extraction = dir.path + "/phone"
        let folder = extraction + "/private/var/mobile/Library/CoreDuet/Knowledge"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/knowledgeC.db"
        let sql = try dir.write(
            "kc.sql", KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(60_000, start: 816_854_400))
        try #require(try shell("sqlite3 '\(db)' < '\(sql)'").status == 0)
        let disk = dir.path + "/disk"
        try #require(try mountTmpfs(disk, megabytes: 4), "mounting a tmpfs failed")
        let store = disk + "/store"
        #expect(try CLI.run(["ingest", "--store", store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let before = try CLI.run(["export", "events", "--store", store]).stdout
        // A 5 MB database: its commit's pages are held in memory, and the commit fails.
        let small = try CLI.run(["import", "knowledgec", db, "--store", store])
        #expect(small.status == 74, "\(small.stdout)\(small.stderr)")
        #expect(small.stderr.contains("full") && small.stderr.contains("run again"), "\(small.stderr)")
        #expect(try CLI.run(["export", "events", "--store", store]).stdout == before)
        // An extraction writes in place: the page the disk cannot take faults.
        let whole = ["import", "extraction", extraction, "--device", "phone"]
        let faulted = try CLI.run(whole + ["--store", store])
        #expect(faulted.status == 74, "\(faulted.stdout)\(faulted.stderr)")
        #expect(
            faulted.stderr.contains("could not take a page") && faulted.stderr.contains("run the import again"),
            "\(faulted.stderr)")
        #expect(try CLI.run(["export", "events", "--store", store]).stdout == before)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
        try shell("mount -o remount,size=256m '\(disk)'")
        let again = try CLI.run(whole + ["--store", store])
        #expect(again.status == 0, "\(again.stderr)")
        let control = dir.path + "/control"
        #expect(try CLI.run(whole + ["--store", control]).status == 0)
        let imported = try CLI.run(["export", "events", "--store", control]).stdout
        #expect(try CLI.run(["export", "events", "--store", store]).stdout == before + imported)
        #expect(try CLI.run(["verify", "--store", store]).status == 0)
    }

    @Test("a writer killed while it holds the write lock: the next writer proceeds", .timeLimit(.minutes(2)))
    func deadWritersLock() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(2_000, seed: 3))
        #expect(try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let before = try CLI.run(["export", "events", "--store", dir.store]).stdout
        for commits in [0, 2, 5] {
            // The writer says when it holds the lock (after `commits` whole commits), and waits there.
            let held = dir.file("held-\(commits)")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CLI.executable)
            p.arguments = ["ingest", "--store", dir.store, "--batch-size", "50", "--batch-ms", "600000", input]
            p.environment = ProcessInfo.processInfo.environment.merging(
                [
                    "TMPDIR": dir.path, "STACKLEDGER_TEST_HOLD_WRITE_LOCK": held,
                    "STACKLEDGER_TEST_HOLD_AFTER_COMMITS": "\(commits)",
                ]) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            var waited = 0
            while !FileManager.default.fileExists(atPath: held) && p.isRunning && waited < 1200 {
                usleep(50_000)
                waited += 1
            }
            #expect(FileManager.default.fileExists(atPath: held), "the writer never held the lock")
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            // The killed transaction left nothing; the commits before it are whole.
            let kept = try CLI.run(["export", "events", "--store", dir.store]).stdout.split(separator: "\n").count
            #expect(
                kept == before.split(separator: "\n").count + commits * 50, "\(kept) events after \(commits) commits")
            let next = try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/watch-workout.ndjson")])
            #expect(next.status == 0, "\(next.stderr)")
            #expect(try CLI.run(["verify", "--store", dir.store]).status == 0)
            try FileManager.default.removeItem(atPath: dir.store)
            #expect(
                try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        }
    }
}

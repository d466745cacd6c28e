import Foundation
import StackLedgerTesting
import Testing

/// A writer killed at random moments leaves a store that verifies and holds exactly a
/// prefix of whole batches, including every batch it reported committed.
@Suite("Crash safety", .serialized)
struct CrashTests {
    static let batchSize = 200

    struct Run {
        var process: Process
        var stderr: Pipe
    }

    /// Starts an ingest whose spool lives beside its store, so that a killed run's spool
    /// goes when the test's directory does.
    func startIngest(store: String, input: String, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["TMPDIR": URL(fileURLWithPath: store).deletingLastPathComponent().path]) { $1 }.merging(environment) { $1 }
        process.arguments = [
            "ingest", "--store", store, "--batch-size", "\(CrashTests.batchSize)", "--batch-ms", "600000", input,
        ]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return Run(process: process, stderr: err)
    }

    /// The highest sequence number the run reported committed.
    func reported(_ run: Run) -> Int {
        let text = String(decoding: run.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "committed through seq ") else { return nil }
            return Int(line[r.upperBound...])
        }.max() ?? 0
    }

    @Test("20 SIGKILLs during ingest: every reported batch is there once, no partial batch, verify passes")
    func killedIngest() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let text = workload(8000, seed: 42)
        let lines = text.split(separator: "\n").map(String.init)
        let input = try dir.write("w.ndjson", text)

        // Calibrate: how long does a whole ingest take here?
        let start = Date()
        #expect(try CLI.run(["ingest", "--store", dir.file("calibration"), input]).status == 0)
        let whole = Date().timeIntervalSince(start)

        var rng = SplitMix64(seed: 2026)
        var kills = 0
        var round = 0
        var store = dir.store
        for _ in 0..<80 where kills < 20 {
            let run = try startIngest(store: store, input: input)
            let delay = Double(rng.next() % 1000) / 1000 * whole
            Thread.sleep(forTimeInterval: delay)
            if run.process.isRunning {
                kill(run.process.processIdentifier, SIGKILL)
                kills += 1
            }
            run.process.waitUntilExit()
            let committed = reported(run)
            // Killed before it created the store: nothing can have been committed.
            if !FileManager.default.fileExists(atPath: store + "/data.mdb") {
                #expect(committed == 0)
                continue
            }
            let verify = try CLI.run(["verify", "--store", store])
            if verify.status == 74 && committed == 0 && verify.stderr.contains("no StackLedger store") {
                continue // killed between creating the file and its first commit
            }
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            let exported = try CLI.run(["export", "events", "--store", store]).stdout.split(separator: "\n").map(
                String.init)
            #expect(exported.count >= committed, "reported \(committed), found \(exported.count)")
            #expect(
                exported.count % CrashTests.batchSize == 0 || exported.count == lines.count,
                "partial batch: \(exported.count)")
            #expect(exported == Array(lines.prefix(exported.count)), "the store is not a prefix of the input")
            if exported.count == lines.count {
                // Complete: re-running adds nothing; then start again on a new store.
                let again = try CLI.run(["ingest", "--store", store, input])
                #expect(again.stdout.contains("stored 0, skipped \(lines.count) duplicates"))
                round += 1
                store = dir.store + "-\(round)"
            }
        }
        #expect(kills >= 20)
        let last = try CLI.run(["ingest", "--store", store, input])
        #expect(last.status == 0)
        let final = try CLI.run(["export", "events", "--store", store]).stdout
        #expect(final == text)
    }

    @Test("readers in other processes see only whole committed batches while a writer runs")
    func concurrentReaders() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(6000, seed: 9))
        #expect(
            try CLI.run([
                "ingest", "--store", dir.store,
                try dir.write(
                    "first.ndjson",
                    #"{"type":"system.developerMode","time":"2026-03-02T07:00:00Z","enabled":true}"# + "\n"),
            ]).status == 0)
        // A writer stopped inside its fourth transaction, holding the lock: readers see the
        // three batches it committed, no more and no less.
        let held = dir.file("held")
        let paused = try startIngest(
            store: dir.store, input: input,
            environment: ["STACKLEDGER_TEST_HOLD_WRITE_LOCK": held, "STACKLEDGER_TEST_HOLD_AFTER_COMMITS": "3"])
        var waited = 0
        while !FileManager.default.fileExists(atPath: held) && paused.process.isRunning && waited < 1200 {
            usleep(50_000)
            waited += 1
        }
        #expect(FileManager.default.fileExists(atPath: held))
        for _ in 0..<3 {
            let stats = try CLI.run(["stats", "--store", dir.store, "--json"])
            #expect(stats.stdout.contains(#""events":\#(1 + 3 * CrashTests.batchSize),"#), "\(stats.stdout)")
            #expect(try CLI.run(["verify", "--store", dir.store]).status == 0)
        }
        kill(paused.process.processIdentifier, SIGKILL)
        paused.process.waitUntilExit()
        let writer = try startIngest(store: dir.store, input: input)
        var observations = 0
        while writer.process.isRunning && observations < 40 {
            let stats = try CLI.run(["stats", "--store", dir.store, "--json"])
            #expect(stats.status == 0)
            if let r = stats.stdout.range(of: #""events":"#),
                let end = stats.stdout[r.upperBound...].firstIndex(of: ",")
            {
                let n = Int(stats.stdout[r.upperBound..<end]) ?? -1
                #expect((n - 1) % CrashTests.batchSize == 0 || n == 6001, "a reader saw \(n) events")
            }
            let verify = try CLI.run(["verify", "--store", dir.store])
            #expect(verify.status == 0, "\(verify.stdout)")
            observations += 1
        }
        writer.process.waitUntilExit()
        #expect(writer.process.terminationStatus == 0)
        #expect(observations > 0)
    }
}

@Suite("Torture (shortened)", .serialized)
struct TortureTests {
    @Test("tools/torture: writers killed at random while readers query; every check holds")
    func torture() throws {
        let r = try CLI.run(
            executable: "/usr/bin/python3",
            [
                Fixtures.repositoryRoot + "/tools/torture", "--kills", "12", "--events", "1500",
                "--batch", "50", "--stackledger", CLI.executable,
            ])
        let o = r.stdout
        let e = r.stderr
        #expect(r.status == 0, "\(o)\(e)")
        #expect(o.contains("12 SIGKILLs") && o.contains("0 failures"), "\(o)")
    }
}

import Foundation
import StackLedgerTesting
import Testing

/// Inputs that are not regular files go through the same all-or-nothing path as a file.
@Suite("Inputs that are not regular files", .timeLimit(.minutes(2)))
struct InputPathTests {
    /// 3,000 events with ids, then the first id again with other content.
    static func conflicting() -> String {
        var lines = (0..<3000).map { k in
            #"{"type":"app.foreground","time":"2026-05-04T09:\#(String(format: "%02d", k / 60 % 60)):\#(String(format: "%02d", k % 60))Z","app":"com.a","id":"e\#(k)"}"#
        }
        lines.append(#"{"type":"app.foreground","time":"2026-05-04T10:00:00Z","app":"com.b","id":"e0"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    func expectNothingStored(_ dir: WorkDirectory, _ r: CLI.Result) throws {
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("nothing was stored"), "\(r.stderr)")
        #expect(!r.stderr.contains("committed through"))
        let stats = try CLI.run(["stats", "--store", dir.store, "--json"])
        #expect(stats.status == 74 || stats.stdout.contains(#""events":0"#), "\(stats.stdout)")
    }

    @Test("a pipe named as /dev/stdin or by process substitution is rejected whole when a later line repeats an id")
    func pipeIsAllOrNothing() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let f = try dir.write("f.ndjson", Self.conflicting())
        let small = ["--batch-size", "100"]
        try expectNothingStored(
            dir,
            try CLI.run(
                executable: "/bin/sh",
                [
                    "-c",
                    "cat '\(f)' | '\(CLI.executable)' ingest --store '\(dir.store)' \(small.joined(separator: " ")) /dev/stdin",
                ]))
        try expectNothingStored(
            dir,
            try CLI.run(
                executable: "/bin/bash",
                [
                    "-c",
                    "'\(CLI.executable)' ingest --store '\(dir.store)' \(small.joined(separator: " ")) <(cat '\(f)')",
                ]))
        let line = try CLI.run(["ingest", "--store", dir.store, "-"] + small, stdin: Self.conflicting())
        try expectNothingStored(dir, line)
        #expect(line.stderr.contains("-:3001"), "\(line.stderr)")
    }

    @Test("a named FIFO is read once: a repeated id is rejected instead of waiting for a second writer")
    func fifoReadOnce() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let fifo = dir.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let f = try dir.write("f.ndjson", Self.conflicting())
        let r = try CLI.run(
            executable: "/bin/sh",
            ["-c", "cat '\(f)' > '\(fifo)' & exec '\(CLI.executable)' ingest --store '\(dir.store)' '\(fifo)'"])
        try expectNothingStored(dir, r)
        #expect(r.stderr.contains("in.fifo:3001"), "\(r.stderr)")
    }

    @Test("an endless input without line breaks stops at the line limit")
    func endlessLine() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let r = try CLI.run(["ingest", "--store", dir.store, "/dev/zero"])
        #expect(r.status == 65 && r.stderr.contains("/dev/zero:1: the line is longer than 8 MiB"), "\(r.stderr)")
    }

    @Test("SIGTERM during ingest leaves no temporary files, and a killed run's files go with the next run")
    func signalsCleanUp() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let tmp = dir.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let fifo = dir.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.executable)
        p.arguments = ["ingest", "--store", dir.store, fifo]
        p.environment = ["TMPDIR": tmp]
        try p.run()
        // Hold the FIFO open so that ingest waits inside its input copy.
        let writer = FileHandle(forWritingAtPath: fifo)!
        writer.write(Data(#"{"type":"app.foreground","time":"2026-05-04T09:00:00Z","app":"com.a"}"#.utf8 + [0x0A]))
        var waited = 0
        while (try FileManager.default.contentsOfDirectory(atPath: tmp)).isEmpty && waited < 200 {
            usleep(50_000)
            waited += 1
        }
        #expect(try !FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        p.terminate()
        p.waitUntilExit()
        try writer.close()
        #expect(p.terminationStatus == 128 + SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
        // A directory left by a process that no longer runs is removed by the next run.
        let stale = tmp + "/stackledger-spool-999999999-abcdef"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        let r = try CLI.run(["ingest", "--store", dir.store, "-"], stdin: "", environment: ["TMPDIR": tmp])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }
}

@Suite("Artifacts that are not regular files", .timeLimit(.minutes(2)))
struct ArtifactPathTests {
    @Test("a FIFO or a device given to an importer is refused at once; a link to a valid file is read through")
    func nonRegularArtifacts() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let fifo = dir.file("CurrentPowerlog.PLSQL")
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [[String]] = [
            ["import", "knowledgec", "/dev/zero"], ["import", "powerlog", "/dev/zero"], ["import", "powerlog", fifo],
            ["import", "segb", fifo, "--stream", "App.InFocus"],
        ]
        for c in cases {
            let r = try CLI.run(c + ["--store", dir.store], timeout: 30)
            #expect(r.status == 65 && r.stderr.contains("is not a regular file"), "\(c): \(r.stderr)")
        }
        // A lone link is followed to a regular file inside the root, never outside it.
        let fixture = Fixtures.path("data/biome/Device.Display.TrueTone.v2.segb")
        try FileManager.default.createDirectory(atPath: dir.file("real"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture, toPath: dir.file("real/tone.segb"))
        let link = dir.file("link.segb")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/tone.segb")
        let r = try CLI.run([
            "import", "segb", link, "--store", dir.store, "--stream", "Device.Display.TrueTone", "--json",
        ])
        #expect(
            r.status == 0 && r.stdout.contains(#""imported":4"#) && r.stdout.contains(#""link":"real/tone.segb""#),
            "\(r.stdout)\(r.stderr)")
        let outside = dir.file("outside.segb")
        try FileManager.default.createSymbolicLink(atPath: outside, withDestinationPath: fixture)
        let refused = try CLI.run([
            "import", "segb", outside, "--store", dir.store, "--stream", "Device.Display.TrueTone",
        ])
        #expect(
            refused.status == 64 && refused.stderr.contains("outside the extraction root")
                && refused.stderr.contains("--root"), "\(refused.stderr)")
    }

    @Test("a tree is read by one rule: regular files, and links inside the root; the rest is listed as passed over")
    func treeRule() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let fm = FileManager.default
        let fixture = Fixtures.path("data/biome/Device.Display.TrueTone.v2.segb")
        let local = dir.file("root/streams/restricted/Device.Display.TrueTone/local")
        let power = dir.file("root/streams/restricted/Device.Power.LowPowerMode/local")
        try fm.createDirectory(atPath: local, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: power, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.file("root/elsewhere"), withIntermediateDirectories: true)
        try fm.copyItem(atPath: Fixtures.path("data/biome/Device.Power.LowPowerMode.v1.segb"), toPath: power + "/1")
        try fm.copyItem(atPath: fixture, toPath: dir.file("root/elsewhere/tone"))
        try fm.copyItem(atPath: fixture, toPath: dir.file("beside-root"))
        #expect(mkfifo(local + "/2-fifo", 0o600) == 0)
        try fm.createSymbolicLink(atPath: local + "/3-inside", withDestinationPath: "../../../../elsewhere/tone")
        try fm.createSymbolicLink(atPath: local + "/4-outside", withDestinationPath: dir.file("beside-root"))
        try fm.createSymbolicLink(atPath: local + "/5-nowhere", withDestinationPath: "missing")
        try fm.createSymbolicLink(atPath: local + "/6-self", withDestinationPath: "6-self")
        try fm.createSymbolicLink(atPath: local + "/7-loop", withDestinationPath: "..")
        let r = try CLI.run(
            ["import", "segb", dir.file("root/streams"), "--root", dir.file("root"), "--store", dir.store, "--json"],
            timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let files = report?["files"] as? [[String: Any]] ?? []
        #expect(
            files.map { $0["path"] as? String } == [
                "streams/restricted/Device.Display.TrueTone/local/3-inside",
                "streams/restricted/Device.Power.LowPowerMode/local/1",
            ])
        #expect(files.map { $0["link"] as? String } == ["elsewhere/tone", nil])
        #expect(files.map { $0["stream"] as? String } == ["Device.Display.TrueTone", "Device.Power.LowPowerMode"])
        #expect(
            files.map { ($0["imported"] as? Int ?? 0) + ($0["duplicates"] as? Int ?? 0) }.allSatisfy { $0 > 0 },
            "\(files)")
        let passed = Dictionary(
            uniqueKeysWithValues: (report?["passedOver"] as? [[String: Any]] ?? []).map {
                (
                    ($0["path"] as? String ?? "").split(separator: "/").last.map(String.init) ?? "",
                    $0["reason"] as? String ?? ""
                )
            })
        #expect(passed["2-fifo"]?.contains("not a regular file (a FIFO)") == true, "\(passed)")
        #expect(passed["4-outside"]?.contains("outside the extraction root") == true, "\(passed)")
        #expect(passed["5-nowhere"]?.contains("leads nowhere") == true, "\(passed)")
        #expect(passed["6-self"]?.contains("loops") == true, "\(passed)")
        #expect(passed["7-loop"]?.contains("a loop") == true, "\(passed)")
        #expect(passed.count == 5, "\(passed)")
        // The text report lists them too, escaped like every path it prints.
        let text = try CLI.run(
            ["import", "segb", dir.file("root/streams"), "--root", dir.file("root"), "--store", dir.store], timeout: 60)
        #expect(
            text.status == 0
                && text.stdout.contains("passed over\tstreams/restricted/Device.Display.TrueTone/local/2-fifo\t"),
            "\(text.stdout)")
        #expect(text.stdout.contains("  read through a link to elsewhere/tone"), "\(text.stdout)")
    }

    @Test("knowledgeC and PowerLog directories pass over a FIFO instead of waiting on it")
    func databaseDirectories() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.file("db"), withIntermediateDirectories: true)
        #expect(mkfifo(dir.file("db/knowledgeC.db"), 0o600) == 0)
        for format in ["knowledgec", "powerlog"] {
            let r = try CLI.run(["import", format, dir.file("db"), "--store", dir.store, "--json"], timeout: 30)
            #expect(
                r.status == 0
                    && r.stdout.contains(
                        #""passedOver":[{"path":"knowledgeC.db","reason":"not a regular file (a FIFO)"#),
                "\(format): \(r.stdout)\(r.stderr)")
        }
    }
}

@Suite("Two ingests at once", .timeLimit(.minutes(3)))
struct ConcurrentIngestTests {
    /// `count` events with ids `prefix-k`, and, last, id `shared` with `content`.
    static func input(_ prefix: String, count: Int, shared content: String) -> String {
        var lines = (0..<count).map { k in
            #"{"type":"app.foreground","time":"2026-05-04T\#(String(format: "%02d", 8 + k / 3600)):\#(String(format: "%02d", k / 60 % 60)):\#(String(format: "%02d", k % 60))Z","app":"com.\#(prefix)","id":"\#(prefix)-\#(k)"}"#
        }
        lines.append(#"{"type":"app.foreground","time":"2026-05-04T20:00:00Z","app":"com.\#(content)","id":"shared"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "inputs that share one id with other content: one run stores whole; the other stores only the batches it reported committed"
    )
    func sharedIDWithOtherContent() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let a = try dir.write("a.ndjson", Self.input("a", count: 20_000, shared: "a"))
        let b = try dir.write("b.ndjson", Self.input("b", count: 20_000, shared: "b"))
        #expect(try CLI.run(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        func start(_ path: String, _ err: Pipe) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CLI.executable)
            p.arguments = ["ingest", "--store", dir.store, "--batch-size", "1000", path]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            return p
        }
        let (ea, eb) = (Pipe(), Pipe())
        let (pa, pb) = (try start(a, ea), try start(b, eb))
        let (ta, tb) = (PipeDrain(ea.fileHandleForReading), PipeDrain(eb.fileHandleForReading))
        pa.waitUntilExit()
        pb.waitUntilExit()
        let errors = [String(decoding: ta.wait(), as: UTF8.self), String(decoding: tb.wait(), as: UTF8.self)]
        let statuses = [pa.terminationStatus, pb.terminationStatus]
        #expect(statuses.sorted() == [0, 65], "\(statuses) \(errors)")
        let loser = try #require(statuses.firstIndex(of: 65))
        let prefix = loser == 0 ? "a" : "b"
        // What the loser stored is exactly the batches it reported: committed through seq N.
        let reported = errors[loser].split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "committed through seq ") else { return nil }
            return Int(line[r.upperBound...])
        }
        let log = try CLI.run(["log", "--store", dir.store, "--json", "--app", "com.\(prefix)"]).stdout.split(
            separator: "\n")
        let seqs = log.compactMap { line -> Int? in
            guard let r = line.range(of: #""seq":"#), let end = line[r.upperBound...].firstIndex(of: ",") else {
                return nil
            }
            return Int(line[r.upperBound..<end])
        }
        #expect(
            seqs.allSatisfy { s in reported.contains { $0 >= s } },
            "stored \(seqs.count) events of the loser; it reported \(reported)")
        #expect(seqs.count % 1000 == 0)
        #expect(try CLI.run(["verify", "--store", dir.store]).status == 0)
    }
}

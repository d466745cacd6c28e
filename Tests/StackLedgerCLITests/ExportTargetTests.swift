import Foundation
import StackLedgerTesting
import Testing

/// What `--out` may name: a regular file (new or replaced), or `-` for standard output where
/// the format allows; never a device, a link or a directory, which the rename would replace.
@Suite("Export targets")
struct ExportTargetTests {
    func store(_ dir: WorkDirectory) throws {
        let r = CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")])
        try #require(r.status == 0, "\(r.stderr)")
    }

    /// Runs the CLI in `directory`.
    func run(in directory: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(
            executable: "/bin/sh",
            ["-c", #"cd "$1" && shift && exec "$@""#, "sh", directory, CLI.executable] + arguments)
    }

    @Test("a one-character --out is a file in the working directory")
    func oneCharacter() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let work = dir.file("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let timeline = try run(
            in: work, ["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", "a"])
        #expect(timeline.status == 0, "\(timeline.stderr)")
        let sqlite = try run(in: work, ["export", "sqlite", "--store", dir.store, "--out", "b"])
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let report = try run(
            in: work,
            [
                "report", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z",
                "--out", "c",
            ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).sorted() == ["a", "a.meta.json", "b", "c"])
    }

    @Test("--out naming a link, a directory or a device is a usage error, and it is left as it was")
    func notRegular() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let target = try dir.write("target.txt", "kept\n")
        let link = dir.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let directory = dir.file("folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (out, what) in [(link, "a symbolic link"), (directory, "a directory"), ("/dev/null", "a device")] {
            for arguments in [
                ["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", out],
                ["export", "sqlite", "--store", dir.store, "--out", out],
            ] {
                let r = CLI.call(arguments)
                #expect(r.status == 64, "\(arguments): \(r.stderr)")
                #expect(r.stderr.contains("is \(what)"), "\(r.stderr)")
            }
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
        #expect(
            try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
                == .typeCharacterSpecial)
    }

    @Test("--out - writes Timesketch and CASE to standard output, with --meta required; SQLite refuses it")
    func standardOutput() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let meta = dir.file("meta.json")
        let jsonl = CLI.call([
            "export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", "-", "--meta", meta,
        ])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let lines = jsonl.stdout.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{\"message\":") })
        let metadata = try String(contentsOfFile: meta, encoding: .utf8)
        #expect(metadata.contains(#""file":"standard output""#), "\(metadata)")
        let csv = CLI.call([
            "export", "timeline", "--store", dir.store, "--format", "timesketch-csv", "--out", "-", "--meta", meta,
        ])
        #expect(csv.status == 0 && csv.stdout.hasPrefix("message,"), "\(csv.stdout.prefix(200))")
        let bundle = CLI.call([
            "export", "timeline", "--store", dir.store, "--format", "case", "--out", "-", "--meta", meta,
        ])
        #expect(bundle.status == 0 && bundle.stdout.contains("uco-core"), "\(bundle.stderr)")
        let noMeta = CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", "-"])
        #expect(noMeta.status == 64 && noMeta.stderr.contains("--meta"), "\(noMeta.stderr)")
        let sqlite = CLI.call(["export", "sqlite", "--store", dir.store, "--out", "-"])
        #expect(sqlite.status == 64 && sqlite.stderr.contains("SQLite"), "\(sqlite.stderr)")
    }

    @Test("a killed export's partial file is removed by the next export to that folder")
    func stalePartial() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let out = dir.file("t.jsonl")
        // A process id no process has (above the kernel's limit).
        let stale = dir.file(".t.jsonl.partial-99999999")
        try Data("half".utf8).write(to: URL(fileURLWithPath: stale))
        let r = CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: out))
    }
}

/// A line past the contract's 8 MiB is one problem, however long it is.
@Suite("Over-long lines")
struct OverlongLineTests {
    @Test("a 20 MB line and one bad line are two rejected lines; the message points at docs/events.md")
    func counted() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = dir.file("long.ndjson")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(#"{"type":"app.foreground","time":"2026-03-02T06:00:00Z","app":""#.utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<20 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data("\"}\n{\"type\":\"no.such.type\",\"time\":\"2026-03-02T06:00:00Z\"}\n".utf8))
        try handle.close()
        let r = CLI.call(["ingest", "--store", dir.store, path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("rejected 2 invalid lines"), "\(r.stderr)")
        #expect(r.stderr.contains("see docs/events.md"), "\(r.stderr)")
    }
}

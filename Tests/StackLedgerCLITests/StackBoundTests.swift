import Foundation
import Ledger
import StackLedgerTesting
import Testing

/// The bound on a device's stacks (docs/events.md, limits): an ingest that would create
/// more than 10,000 stacks on one device is refused, naming the line, the stack and the
/// limit, and leaves the store as it was; a store whose names table is gone rebuilds it.
@Suite("Stacks per device", .timeLimit(.minutes(3)))
struct StackBoundTests {
    static let limit = 10_000

    static func created(_ range: Range<Int>, device: String = "d1") -> String {
        range.map { i in
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","device":"\#(device)","stack":"s\#(i)","platform":"iOS","family":"systemSmall"}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test("the 10,001st stack of a device is refused with its line; another device's are not counted")
    func oneIngest() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("many.ndjson", Self.created(0..<(Self.limit + 1)) + Self.created(0..<5, device: "d2"))
        let r = CLI.call(["ingest", "--store", dir.store, input])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("many.ndjson:10001"), "\(r.stderr)")
        #expect(r.stderr.contains("stack") && r.stderr.contains("at most 10000 stacks"), "\(r.stderr)")
        #expect(!r.stderr.contains("many.ndjson:10000:"), "\(r.stderr)")
        let skipped = CLI.call(["ingest", "--store", dir.store, "--skip-invalid", input])
        #expect(skipped.status == 65)
        #expect(skipped.stdout.contains("stored \(Self.limit + 5)"), "\(skipped.stdout)")
    }

    @Test("across ingests the stored stacks count; a stack already stored is not a new one")
    func acrossIngests() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call(["ingest", "--store", dir.store, try dir.write("a.ndjson", Self.created(0..<Self.limit))])
                .status == 0)
        let again = try dir.write("b.ndjson", Self.created(0..<3).replacingOccurrences(of: "05:00", with: "06:00"))
        #expect(CLI.call(["ingest", "--store", dir.store, again]).status == 0)
        let before = CLI.call(["export", "events", "--store", dir.store]).stdout
        let one = try dir.write("c.ndjson", Self.created(Self.limit..<(Self.limit + 1)))
        let r = CLI.call(["ingest", "--store", dir.store, one])
        #expect(
            r.status == 65 && r.stderr.contains("c.ndjson:1") && r.stderr.contains("the store names 10000"),
            "\(r.stderr)")
        #expect(CLI.call(["export", "events", "--store", dir.store]).stdout == before)
    }

    @Test("a store without the table of stack names (an earlier build's) has it rebuilt from the log")
    func rebuiltNames() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call(["ingest", "--store", dir.store, try dir.write("a.ndjson", Self.created(0..<Self.limit))])
                .status == 0)
        do {
            let ledger = try Ledger(path: dir.store)
            try ledger.writeDerived { w in
                #expect(try w.delete(prefix: Array("sn".utf8)) == Self.limit)
                try w.setMark("stackNames", 0)
            }
        }
        let r = CLI.call([
            "ingest", "--store", dir.store, try dir.write("c.ndjson", Self.created(Self.limit..<(Self.limit + 1))),
        ])
        #expect(r.status == 65 && r.stderr.contains("at most 10000 stacks"), "\(r.stderr)")
    }

    @Test("an imported layout that would create one stack too many fails its file, and nothing of it is stored")
    func importedLayout() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("a.ndjson", Self.created(0..<Self.limit, device: "phone"))
        #expect(CLI.call(["ingest", "--store", dir.store, input]).status == 0)
        let plist = IconStateWriter.encode(pages: [
            [
                .stack(
                    "NEW-STACK", gridSize: "small",
                    [
                        IconStateWriter.Element(
                            "W-1", kind: "K", app: "com.example.a", extensionBundle: "com.example.a.w")
                    ])
            ]
        ])
        let path = dir.file("IconState.plist")
        try Data(plist).write(to: URL(fileURLWithPath: path))
        let before = CLI.call(["export", "events", "--store", dir.store]).stdout
        let r = CLI.call([
            "import", "iconstate", path, "--device", "phone", "--layout-time", "2026-05-04T06:00:00Z", "--store",
            dir.store,
        ])
        #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("at most 10000 stacks"), "\(r.stdout)\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("NEW-STACK"), "\(r.stdout)\(r.stderr)")
        #expect(CLI.call(["export", "events", "--store", dir.store]).stdout == before)
        // A layout of stacks the device already has fits.
        let known = IconStateWriter.encode(pages: [
            [
                .stack(
                    "s1", gridSize: "small",
                    [
                        IconStateWriter.Element(
                            "W-1", kind: "K", app: "com.example.a", extensionBundle: "com.example.a.w")
                    ])
            ]
        ])
        try Data(known).write(to: URL(fileURLWithPath: path))
        let ok = CLI.call([
            "import", "iconstate", path, "--device", "phone", "--layout-time", "2026-05-04T06:00:00Z", "--store",
            dir.store,
        ])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
    }
}

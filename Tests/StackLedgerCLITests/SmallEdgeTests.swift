import Foundation
import StackLedgerTesting
import Testing

extension ServeTests {
    @Test("a time outside 1970-2200 is refused by serve with the range named, as the CLI names it")
    func yearOutOfRange() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running(["--store", dir.store])
        let script = """
            import json, sys, urllib.request, urllib.error
            try:
                urllib.request.urlopen(sys.argv[1] + "api/state?device=phone&at=9999-01-01T00:00:00Z")
            except urllib.error.HTTPError as e:
                print(e.code, json.loads(e.read())["error"]["message"])
            """
        let r = try python(script, [server.url])
        #expect(r.stdout.hasPrefix("400 ") && r.stdout.contains("1970-2200"), "\(r.stdout)\(r.stderr)")
        let cli = try CLI.run(["state", "--store", dir.store, "--device", "phone", "--at", "9999-01-01T00:00:00Z"])
        #expect(cli.status == 64 && cli.stderr.contains("1970-2200"), "\(cli.stderr)")
    }
}

/// Small edges of the command line, each once a silent surprise.
@Suite("Small edges")
struct SmallEdgeTests {
    @Test("--time-zone takes IANA names only: UTC+5 is refused, naming examples")
    func timeZoneName() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let folder = dir.file("phone")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for zone in ["UTC+5", "GMT+0500", "Nowhere/City"] {
            let r = try CLI.run(["import", "extraction", folder, "--time-zone", zone, "--store", dir.store])
            #expect(r.status == 64 && r.stderr.contains("not an IANA time zone name"), "\(zone): \(r.stderr)")
        }
        let ok = try CLI.run(["import", "extraction", folder, "--time-zone", "Asia/Tokyo", "--store", dir.store])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("a policy file that starts with a byte order mark is read as its JSON")
    func policyWithMark() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = dir.file("policy.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"rotationCapPerWidgetPerDay": 3}"#.utf8)).write(
            to: URL(fileURLWithPath: path))
        let r = try CLI.run(["policy", "--policy", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""rotationCapPerWidgetPerDay":3"#), "\(r.stdout)")
    }
}

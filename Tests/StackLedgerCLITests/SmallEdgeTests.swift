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
        let cli = CLI.call(["state", "--store", dir.store, "--device", "phone", "--at", "9999-01-01T00:00:00Z"])
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
            let r = CLI.call(["import", "extraction", folder, "--time-zone", zone, "--store", dir.store])
            #expect(r.status == 64 && r.stderr.contains("not an IANA time zone name"), "\(zone): \(r.stderr)")
        }
        let ok = CLI.call(["import", "extraction", folder, "--time-zone", "Asia/Tokyo", "--store", dir.store])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("a policy file that starts with a byte order mark is read as its JSON")
    func policyWithMark() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let path = dir.file("policy.json")
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"rotationCapPerWidgetPerDay": 3}"#.utf8)).write(
            to: URL(fileURLWithPath: path))
        let r = CLI.call(["policy", "--policy", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(#""rotationCapPerWidgetPerDay":3"#), "\(r.stdout)")
    }
}

extension ServeTests {
    @Test("a request with two Host headers is refused, whichever comes first")
    func twoHosts() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running(["--store", dir.store])
        let script = """
            import socket, sys, urllib.parse
            u = urllib.parse.urlparse(sys.argv[1])
            for hosts in (["localhost", "evil.example"], ["evil.example", "localhost"], ["localhost"]):
                s = socket.create_connection((u.hostname, u.port))
                s.sendall(("GET /api/devices HTTP/1.1\\r\\n" + "".join("Host: %s\\r\\n" % h for h in hosts) + "Connection: close\\r\\n\\r\\n").encode())
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    data += chunk
                print(data.split(b"\\r\\n")[0].decode())
            """
        let r = try python(script, [server.url])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(r.stdout)\(r.stderr)")
        #expect(lines.prefix(2).allSatisfy { $0.contains(" 400 ") || $0.contains(" 421 ") }, "\(lines)")
        #expect(lines.first?.contains(" 400 ") == true, "\(lines)")
        #expect(lines.last?.contains(" 200 ") == true, "\(lines)")
    }
}

/// What an extraction holds that nothing reads is named, never passed over in silence.
@Suite("Passed over, said")
struct PassedOverTests {
    @Test("a log without its database and a nested archive are named in the report, in a folder and in a zip")
    func named() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = dir.file("phone")
        let knowledge = root + "/private/var/mobile/Library/CoreDuet/Knowledge"
        try FileManager.default.createDirectory(atPath: knowledge, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 64).write(to: URL(fileURLWithPath: knowledge + "/knowledgeC.db-wal"))
        try Data("PK".utf8).write(to: URL(fileURLWithPath: root + "/private/var/mobile/backup.zip"))
        let folder = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(
            folder.stdout.contains(
                "passed over\tprivate/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db-wal\ta SQLite log or journal whose database is not in the extraction"
            ), "\(folder.stdout)")
        #expect(
            folder.stdout.contains("present, not read\tprivate/var/mobile/backup.zip\tan archive inside the extraction")
        )
        let archive = dir.file("phone.zip")
        let zipped = try CLI.run(
            executable: "/usr/bin/python3",
            [
                "-c",
                "import shutil, sys; shutil.make_archive(sys.argv[1][:-4], 'zip', sys.argv[2])", archive, root,
            ])
        try #require(zipped.status == 0, "\(zipped.stderr)")
        let fromZip = CLI.call(["import", "extraction", archive, "--device", "phone", "--store", dir.store])
        #expect(fromZip.status == 0, "\(fromZip.stderr)")
        #expect(fromZip.stdout.contains("whose database is not in the extraction"), "\(fromZip.stdout)")
        #expect(fromZip.stdout.contains("an archive inside the extraction"))
    }
}

extension ServeTests {
    @Test("connections past the cap wait; a head that trickles, or never comes, is closed at its timeout")
    func connectionLimits() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try store(dir)
        let server = try Running([
            "--store", dir.store, "--max-connections", "4", "--header-timeout", "3", "--idle-timeout", "30",
        ])
        let script = """
            import socket, sys, time, urllib.parse, urllib.request
            u = urllib.parse.urlparse(sys.argv[1])
            def connect(): return socket.create_connection((u.hostname, u.port), timeout=10)
            def closed_within(s, seconds):
                s.settimeout(seconds)
                try: return s.recv(1024) == b""
                except socket.timeout: return False
                except ConnectionResetError: return True
            # A connection that sends nothing, and one that trickles its head a byte a second.
            silent = connect()
            trickle = connect()
            start = time.time()
            request = b"GET /api/devices HTTP/1.1\\r\\nHost: localhost\\r\\nX-Slow: "
            closed = False
            for i in range(8):
                try: trickle.sendall(request[i:i + 1] if i < len(request) else b"a")
                except OSError: closed = True; break
                time.sleep(1)
            print(closed_within(silent, 5), closed or closed_within(trickle, 5), round(time.time() - start) < 12)
            # Four idle connections fill the cap: a fifth is answered only once one closes.
            held = []
            for _ in range(4):
                held.append(connect())
                held[-1].sendall(b"GET /api/devices HTTP/1.1\\r\\nHost: localhost\\r\\n")
                time.sleep(0.2)  # each accepted before the next, so the cap is reached in order
            time.sleep(0.3)
            fifth = connect()
            fifth.sendall(b"GET /api/devices HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n")
            fifth.settimeout(0.5)
            try: early = fifth.recv(64)
            except socket.timeout: early = b""
            for h in held: h.close()
            fifth.settimeout(10)
            late = early or fifth.recv(64)
            print(early == b"", late.startswith(b"HTTP/1.1 200"))
            """
        let r = try python(script, [server.url])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["True True True", "True True"], "\(r.stdout)\(r.stderr)")
    }
}

extension SmallEdgeTests {
    @Test("rebuild of a store with no events yet says why it made no checkpoint")
    func rebuildNothing() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: "").status == 0)
        let r = CLI.call(["rebuild", "--store", dir.store])
        #expect(r.status == 0 && r.stderr.contains("the store holds no events yet"), "\(r.stderr)")
    }
}

extension SmallEdgeTests {
    @Test("a usage error names at most ten devices, and how many more")
    func manyDevices() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = (0..<12).map { n in
            #"{"type":"app.foreground","time":"2026-03-02T06:00:00Z","device":"d\#(n)","app":"a"}"#
        }
        #expect(
            try CLI.run(["ingest", "--store", dir.store, "-"], stdin: lines.joined(separator: "\n") + "\n").status == 0)
        let r = CLI.call(["state", "--store", dir.store, "--at", "2026-03-02T07:00:00Z"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("and 2 more (`stackledger stats` lists them)"), "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: ", d").count == 10, "\(r.stderr)")
    }
}

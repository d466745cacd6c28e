import Foundation
import StackLedgerTesting
import Testing

/// From a device's records to an answer: the real PowerLog sample and an IconState.plist
/// written from SpringBoard's key names, whose widget ids are the PowerLog rows' identifiers
/// (an assumption from the data, not a documented fact).
@Suite("Device layouts end to end")
struct DeviceLayoutTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// An extraction holding the PowerLog sample and an IconState.plist: one stack of the
    /// Weather and Photos widgets, the clock and calendar widgets alone.
    func extraction(_ dir: WorkDirectory) throws -> String {
        let root = dir.file("extraction")
        let springBoard = root + "/private/var/mobile/Library/SpringBoard"
        try FileManager.default.createDirectory(atPath: springBoard, withIntermediateDirectories: true)
        let element = { (id: String, kind: String, app: String, ext: String) in
            IconStateWriter.Element(id, kind: kind, app: app, extensionBundle: ext)
        }
        let plist = IconStateWriter.encode(pages: [
            [
                .stack(
                    "STACK-1", gridSize: "medium",
                    [
                        element(
                            "F31E834E-D601-44B4-8665-010AB688D28A", "com.apple.weather", "com.apple.weather",
                            "com.apple.weather.widget"),
                        element(
                            "1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D", "com.apple.mobileslideshow.PhotosReliveWidget",
                            "com.apple.mobileslideshow", "com.apple.mobileslideshow.PhotosReliveWidget"),
                    ]),
                .widget(
                    element(
                        "E181372D-47EA-450D-B9F5-6CE608D0676A", "com.apple.mobiletimer.datetime",
                        "com.apple.mobiletimer",
                        "com.apple.mobiletimer.WorldClockWidget")),
            ]
        ])
        try Data(plist).write(to: URL(fileURLWithPath: springBoard + "/IconState.plist"))
        // SpringBoard wrote it when the layout began, inside the span of the other evidence.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_639_656_000)],
            ofItemAtPath: springBoard + "/IconState.plist")
        let powerlog = root + "/private/var/containers/Shared/SystemGroup/Library/BatteryLife"
        try FileManager.default.createDirectory(atPath: powerlog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Fixtures.path("data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"),
            toPath: powerlog + "/CurrentPowerlog.PLSQL")
        return root
    }

    @Test("state, why and replay --disagreements answer from the device's layout, assumed before its time")
    func answers() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        let layoutFile = root + "/private/var/mobile/Library/SpringBoard/IconState.plist"
        CLI.call([
            "import", "powerlog",
            root + "/private/var/containers/Shared/SystemGroup/Library/BatteryLife/CurrentPowerlog.PLSQL",
            "--root", root, "--store", dir.store,
        ])
        let imported = CLI.call([
            "import", "iconstate", layoutFile, "--root", root, "--layout-time", "2021-12-16T12:00:00Z", "--store",
            dir.store,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")

        let before = try json(
            CLI.call(["state", "--store", dir.store, "--at", "2021-11-02T10:24:00Z", "--json"]).stdout)
        let stacks = try #require(before["stacks"] as? [[String: Any]])
        #expect(stacks.map { $0["stack"] as? String } == ["STACK-1"])
        let assumptions = try #require(before["assumptions"] as? [[String: Any]])
        #expect(assumptions.map { $0["code"] as? String } == ["LAYOUT_ASSUMED"])

        let after = try json(
            CLI.call(["state", "--store", dir.store, "--at", "2021-12-16T12:30:00Z", "--json"]).stdout)
        #expect((after["assumptions"] as? [Any])?.isEmpty == true)

        let why = try json(
            CLI.call([
                "why", "--store", dir.store, "--stack", "STACK-1", "--at", "2021-11-02T10:24:41.173087Z", "--json",
            ]).stdout)
        let cited = try #require(why["cited"] as? [[String: Any]])
        let streams = Set(cited.compactMap { ($0["source"] as? [String: Any])?["stream"] as? String })
        #expect(streams.contains("SpringBoard.IconState"))
        #expect(streams.contains("PLApplicationAgent_EventBackward_WidgetStats"))
        let observed = try #require(why["observed"] as? [[String: Any]])
        // PowerLog's in-stack rows say the stack was on screen, not which member was on top.
        #expect(
            observed.count == 2 && observed.allSatisfy { $0["agrees"] is NSNull && $0["scope"] as? String == "stack" })
        #expect(observed.allSatisfy { $0["judgement"] as? String == "consistent" })

        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2021-11-01T00:00:00Z", "--to", "2021-12-17T00:00:00Z",
            "--disagreements",
        ])
        // Every member of the stack on screen has the same row: none can disagree about the top.
        #expect(
            replay.stdout.contains("0 records name the widget shown: 0 agree with the model, 0 disagree"),
            "\(replay.stdout)")
        #expect(
            replay.stdout.contains(
                "8 records say only that the stack was on screen (the record cannot say which member was on top): 8 consistent with the model's layout, 0 where the layout differs"
            ))
        #expect(!replay.stdout.contains("PhotosReliveWidget"))
        #expect(!replay.stdout.contains("could not be judged"))
        // PowerLog's identifier is taken as the instance id: each record is counted by how it matched.
        #expect(
            replay.stdout.contains(
                "matched to the model's widgets: by instance id 8, by extension or app and kind 0, by a cut kind 0"))
    }

    @Test("without a layout the device's records cannot be judged, and replay says why instead of disagreeing")
    func noLayout() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        CLI.call([
            "import", "powerlog",
            root + "/private/var/containers/Shared/SystemGroup/Library/BatteryLife/CurrentPowerlog.PLSQL",
            "--store", dir.store,
        ])
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2021-11-01T00:00:00Z", "--to", "2021-12-17T00:00:00Z",
            "--disagreements",
        ])
        #expect(
            replay.stdout.contains("0 records name the widget shown: 0 agree with the model, 0 disagree"),
            "\(replay.stdout)")
        #expect(replay.stdout.contains("8 could not be judged: the model has no stack then (8)"))
    }
}

/// `import extraction`: a folder holding a device's paths from its root.
@Suite("import extraction")
struct ExtractionImportTests {
    /// The extraction of `DeviceLayoutTests` plus the real Biome and knowledgeC samples at
    /// their device paths, SystemVersion.plist, a chronod cache and a link.
    func extraction(_ dir: WorkDirectory) throws -> String {
        let root = try DeviceLayoutTests().extraction(dir)
        let fm = FileManager.default
        let biome = root + "/private/var/mobile/Library/Biome/streams/restricted/Device.Power.LowPowerMode/local"
        try fm.createDirectory(atPath: biome, withIntermediateDirectories: true)
        try fm.copyItem(atPath: Fixtures.path("data/biome/Device.Power.LowPowerMode.v1.segb"), toPath: biome + "/1")
        try fm.createDirectory(
            atPath: root + "/private/var/mobile/Library/Biome/streams/restricted/Device.Power.LowPowerMode/tombstone",
            withIntermediateDirectories: true)
        let knowledge = root + "/private/var/mobile/Library/CoreDuet/Knowledge"
        try fm.createDirectory(atPath: knowledge, withIntermediateDirectories: true)
        try fm.copyItem(
            atPath: Fixtures.path("data/knowledgec/knowledgec-10.14.db"), toPath: knowledge + "/knowledgeC.db")
        let core = root + "/System/Library/CoreServices"
        try fm.createDirectory(atPath: core, withIntermediateDirectories: true)
        try Data(
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>ProductName</key><string>iPhone OS</string><key>ProductVersion</key><string>15.1</string></dict></plist>"#
                .utf8
        ).write(to: URL(fileURLWithPath: core + "/SystemVersion.plist"))
        let chrono = root + "/private/var/mobile/Library/Caches/com.apple.chrono/snapshot-cache"
        try fm.createDirectory(atPath: chrono, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: chrono + "/1.bin"))
        // chronod on iOS: its database, and a widget's timeline in its SystemData container.
        let chronod = root + "/private/var/mobile/Library/chronod"
        try fm.createDirectory(atPath: chronod, withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: chronod + "/chrono.sql"))
        let timelines =
            root + "/private/var/mobile/Containers/Data/Application/A1/SystemData/com.apple.chrono/timelines"
        try fm.createDirectory(atPath: timelines, withIntermediateDirectories: true)
        try Data([2]).write(to: URL(fileURLWithPath: timelines + "/W.chrono-timeline"))
        try fm.createSymbolicLink(atPath: root + "/var", withDestinationPath: "private/var")
        try fm.createDirectory(atPath: root + "/private/var/db/timezone", withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: root + "/private/var/db/timezone/localtime",
            withDestinationPath: "/var/db/timezone/zoneinfo/Europe/Paris")
        return root
    }

    @Test("every artifact is found by its path and imported; links and caches are listed; a second run adds nothing")
    func wholeExtraction() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        let first = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(first.status == 0, "\(first.stderr)")
        for family in ["segb\t1\t", "knowledgec\t1\t", "powerlog\t1\t16\t", "iconstate\t1\t1\t"] {
            #expect(first.stdout.contains("\n" + family), "\(family): \(first.stdout)")
        }
        #expect(first.stdout.contains("System/Library/CoreServices/SystemVersion.plist\tSystemVersion"))
        #expect(first.stdout.contains("present, not read\tprivate/var/mobile/Library/Caches/com.apple.chrono"))
        #expect(
            first.stdout.contains(
                "present, not read\tprivate/var/mobile/Library/chronod/chrono.sql\tchronod's (WidgetKit's) database"),
            "\(first.stdout)")
        #expect(
            first.stdout.contains(
                "present, not read\tprivate/var/mobile/Containers/Data/Application/A1/SystemData/com.apple.chrono/timelines/W.chrono-timeline\ta chronod (WidgetKit) timeline"
            ))
        #expect(
            first.stdout.contains("passed over\tvar\ta link to private/var; links in an extraction are not followed"))
        // Paths inside the extraction, never through the link.
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(!log.contains(#""path":"var/"#))
        #expect(log.contains(#""type":"device.info""#) && log.contains(#""osVersion":"15.1""#))
        // The time zone the device's localtime link names, and the report says where from.
        #expect(log.contains(#""timeZone":"Europe/Paris""#))
        #expect(first.stdout.contains("time zone Europe/Paris, from the link private/var/db/timezone/localtime"))

        let again = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store, "--json"])
        #expect(again.status == 0)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.count == 5 && files.allSatisfy { $0["imported"] as? Int == 0 })

        let why = CLI.call([
            "why", "--store", dir.store, "--device", "phone", "--stack", "STACK-1", "--at", "2021-11-02T10:30:00Z",
        ])
        #expect(why.status == 0 && why.stdout.contains("LAYOUT_ASSUMED"), "\(why.stdout)\(why.stderr)")
    }

    @Test("--time-zone wins over the time zone the extraction's link names")
    func timeZoneOption() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        let r = CLI.call([
            "import", "extraction", root, "--device", "phone", "--time-zone", "Asia/Tokyo", "--store", dir.store,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(log.contains(#""timeZone":"Asia/Tokyo""#) && !log.contains("Europe/Paris"))
    }

    @Test("without --device the name comes from the folder; a store holding another device needs --device")
    func deviceName() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        let named = CLI.call(["import", "extraction", root, "--store", dir.store])
        #expect(named.status == 0 && named.stderr.contains("device: extraction"))
        let other = dir.file("other-phone")
        try FileManager.default.copyItem(atPath: root, toPath: other)
        let refused = CLI.call(["import", "extraction", other, "--store", dir.store])
        #expect(refused.status == 64 && refused.stderr.contains("--device"))
    }

    @Test("a file that is not what its path says fails alone, exit 65; the rest is imported")
    func brokenArtifact() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        try Data("not a database".utf8).write(
            to: URL(fileURLWithPath: root + "/private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db"))
        let r = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(r.status == 65)
        #expect(r.stderr.contains("private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db:"))
        #expect(r.stdout.contains("\npowerlog\t1\t16\t"))
    }
}

/// `import extraction` of archives, built by Python's tarfile and zipfile from the folder
/// extraction, read in place.
@Suite("import extraction from archives")
struct ExtractionArchiveTests {
    /// Packs `root` into `archive` with Python's standard library: `kind` is `tar`, `tar.gz`
    /// or `zip` (`zip-dos`: without the extended timestamp field, so times are DOS times);
    /// `extra` adds hostile members: `..` and absolute paths, and a knowledgeC.db of 2 MiB
    /// of zeros (a decompression bomb at more than 100 times).
    func pack(_ root: String, into archive: String, kind: String, extra: Bool = false) throws {
        let script = """
            import os, sys, tarfile, zipfile, io, time
            root, out, kind, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
            names = []
            for d, dirs, files in os.walk(root):
                dirs.sort()
                for n in sorted(dirs + files):
                    names.append(os.path.relpath(os.path.join(d, n), root))
            bomb = b"\\0" * (2 << 20)
            layout = "private/var/mobile/Library/SpringBoard/IconState.plist"
            if kind.startswith("tar"):
                with tarfile.open(out, "w:gz" if kind == "tar.gz" else "w", format=tarfile.PAX_FORMAT) as t:
                    for n in names:
                        info = t.gettarinfo(os.path.join(root, n), arcname=n)
                        if n == layout:
                            info.mtime = 1639656000.25
                            info.pax_headers = {"mtime": "1639656000.25"}
                        with open(os.path.join(root, n), "rb") if info.isfile() else io.BytesIO() as f:
                            t.addfile(info, f if info.isfile() else None)
                    if extra:
                        for name, data in [("../escape/knowledgeC.db", b"x"), ("/etc/knowledgeC.db", b"x"),
                                           ("bomb/private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db", bomb)]:
                            info = tarfile.TarInfo(name); info.size = len(data)
                            t.addfile(info, io.BytesIO(data))
            else:
                with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                    for n in names:
                        p = os.path.join(root, n)
                        info = zipfile.ZipInfo(n, date_time=time.gmtime(1639656000)[:6])
                        if os.path.islink(p):
                            info.create_system = 3
                            info.external_attr = (0o120777 << 16)
                            z.writestr(info, os.readlink(p))
                        elif os.path.isdir(p):
                            continue
                        else:
                            info.create_system = 3
                            info.external_attr = (0o100644 << 16)
                            info.compress_type = zipfile.ZIP_DEFLATED
                            if kind == "zip" and n == layout:
                                import struct
                                info.extra = struct.pack("<HHBi", 0x5455, 5, 1, 1639656000)
                            z.writestr(info, open(p, "rb").read())
                    if extra:
                        z.writestr("../escape/knowledgeC.db", b"x")
                        z.writestr("bomb/private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db", bomb)
            """
        let r = try CLI.run(
            executable: "/usr/bin/python3", ["-c", script, root, archive, kind, extra ? "1" : "0"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    func importArchive(_ kind: String, extra: Bool = false) throws -> (WorkDirectory, CLI.Result) {
        let dir = WorkDirectory()
        let root = try ExtractionImportTests().extraction(dir)
        let archive = dir.file("phone." + (kind == "zip-dos" ? "zip" : kind))
        try pack(root, into: archive, kind: kind, extra: extra)
        try FileManager.default.removeItem(atPath: root)
        let r = CLI.call(["import", "extraction", archive, "--device", "phone", "--store", dir.store])
        return (dir, r)
    }

    @Test("a tar.gz, a tar and a zip import as the folder does, with the same events")
    func sameAsFolder() throws {
        let folder = WorkDirectory()
        defer { folder.cleanup() }
        let root = try ExtractionImportTests().extraction(folder)
        CLI.call(["import", "extraction", root, "--device", "phone", "--store", folder.store])
        let expected = CLI.call(["log", "--store", folder.store, "--json"]).stdout
            .split(separator: "\n").filter { !$0.contains("stack.layoutObserved") && !$0.contains("device.info") }
            .map { $0.replacingOccurrences(of: #","recordedAt":"[^"]*""#, with: "", options: .regularExpression) }
        for kind in ["tar.gz", "tar", "zip"] {
            let (dir, r) = try importArchive(kind)
            defer { dir.cleanup() }
            #expect(r.status == 0, "\(kind): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("passed over\tvar\ta link to private/var"), "\(kind)")
            let got = CLI.call(["log", "--store", dir.store, "--json"]).stdout
            let events = got.split(separator: "\n")
            let comparable = events.filter { !$0.contains("stack.layoutObserved") && !$0.contains("device.info") }
                .map { $0.replacingOccurrences(of: #","recordedAt":"[^"]*""#, with: "", options: .regularExpression) }
            #expect(comparable == expected, "\(kind)")
            // The layout's time is the member's: PAX keeps the fraction, zip's extended field the second.
            let layout = try #require(events.first { $0.contains("stack.layoutObserved") })
            #expect(
                layout.contains(
                    kind == "zip" ? #""time":"2021-12-16T12:00:00Z""# : #""time":"2021-12-16T12:00:00.25Z""#),
                "\(layout)")
            // An archive's clock dated it: the layout says so.
            #expect(layout.contains(#""timeUncertain":true"#))
        }
    }

    @Test(
        "a layout file time of 0, or over a year outside the other evidence, is refused without --layout-time",
        arguments: [0.0, 1_924_992_000])
    func inventedTime(seconds: Double) throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try ExtractionImportTests().extraction(dir)
        let layout = root + "/private/var/mobile/Library/SpringBoard/IconState.plist"
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: layout)
        let r = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
        let expected =
            seconds == 0
            ? "its file time is 0 (1970-01-01T00:00:00Z), which is no time a layout held"
            : "its file time, 2031-01-01T00:00:00Z, lies more than a year outside the span the extraction's other evidence covers"
        #expect((r.stdout + r.stderr).contains(expected), "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("IconState.plist") && r.stderr.contains("--layout-time"))
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(!log.contains("stack.layoutObserved") && log.contains("stack.observed"))
        // Given a time, the same file is imported.
        let again = CLI.call([
            "import", "extraction", root, "--device", "phone", "--layout-time", "2021-12-16T12:00:00Z", "--store",
            dir.store,
        ])
        #expect(again.status == 0, "\(again.stdout)")
        #expect(CLI.call(["log", "--store", dir.store, "--json"]).stdout.contains("stack.layoutObserved"))
    }

    @Test("a zip whose layout file has only a DOS time: answers list LAYOUT_TIME_UNCERTAIN")
    func dosTime() throws {
        let (dir, r) = try importArchive("zip-dos")
        defer { dir.cleanup() }
        #expect(r.status == 0, "\(r.stderr)")
        let state = CLI.call([
            "state", "--store", dir.store, "--device", "phone", "--at", "2021-12-16T13:00:00Z",
        ]).stdout
        #expect(state.contains("LAYOUT_TIME_UNCERTAIN STACK-1"), "\(state)")
    }

    @Test("a .tar.gz cut short, or whose gzip checksum does not hold, fails with exit 74 and says which")
    func damagedGzip() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try ExtractionImportTests().extraction(dir)
        let archive = dir.file("phone.tar.gz")
        try pack(root, into: archive, kind: "tar.gz")
        let whole = try #require(FileManager.default.contents(atPath: archive))
        // The trailer is the data's CRC-32, then its length: the last 8 bytes.
        var wrongSum = whole
        wrongSum[wrongSum.count - 6] ^= 0xFF
        let cases: [(name: String, bytes: Data, says: String)] = [
            ("cut.tar.gz", whole.prefix(whole.count - 40), "is a gzip stream cut short; the archive is truncated"),
            ("sum.tar.gz", wrongSum, "is not valid gzip data (its checksum does not match its data)"),
        ]
        for c in cases {
            let path = dir.file(c.name)
            try c.bytes.write(to: URL(fileURLWithPath: path))
            let r = CLI.call([
                "import", "extraction", path, "--device", "phone", "--store", dir.file(c.name + ".store"),
            ])
            #expect(r.status == 74, "\(c.name): \(r.stderr)")
            #expect(r.stderr.contains("\(path): \(c.says)"), "\(c.name): \(r.stderr)")
        }
    }

    @Test("members with .. or absolute paths and decompression bombs are refused with a line each; the rest imports")
    func hostile() throws {
        for kind in ["tar.gz", "zip"] {
            let (dir, r) = try importArchive(kind, extra: true)
            defer { dir.cleanup() }
            #expect(r.status == 65, "\(kind): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("passed over\t../escape/knowledgeC.db\ta path with `..`"), "\(kind)")
            if kind == "tar.gz" {
                #expect(r.stdout.contains("passed over\t/etc/knowledgeC.db\tan absolute path"))
            }
            #expect(r.stderr.contains("bomb/private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db:"), "\(kind)")
            #expect(r.stderr.contains("more than 100 times"), "\(kind): \(r.stderr)")
            #expect(r.stdout.contains("\npowerlog\t1\t16\t"), "\(kind)")
        }
    }
}

/// duetexpertd's `_ATXInfoSuggestionStore.db`, written by Python's sqlite3 from the column
/// names of Apple's own SQL (forensic-sources.md §10c; no public sample exists).
@Suite("The Duet expert store")
struct DuetExpertStoreTests {
    static let weather = "F31E834E-D601-44B4-8665-010AB688D28A"
    static let photos = "1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D"

    /// Writes the store into the extraction at its device path.
    func writeStore(into root: String) throws {
        let dir = root + "/private/var/mobile/Library/DuetExpertCenter"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript('''
            CREATE TABLE proactiveStackRotations (suggestionId TEXT, criterion INTEGER, widgetBundleId TEXT, widgetKind TEXT, intentHash INTEGER, intent BLOB, isStalenessRotation INTEGER, rotationTimestamp REAL, relevancyDurationLimit REAL, coolDownTimeInterval REAL, clientModelId TEXT);
            CREATE TABLE timelineDonations (timestamp REAL, score REAL, duration REAL, extensionBundleId TEXT, containerBundleIdentifier TEXT, widgetKind TEXT, widgetFamily INTEGER, intentHash INTEGER, suggestionId TEXT, suggestionMappingReason INTEGER);
            CREATE TABLE widgetEngagements (widgetUniqueId TEXT, extensionBundleId TEXT, widgetKind TEXT, size INTEGER, intentHash INTEGER, date REAL, engagementType INTEGER, containerBundleIdentifier TEXT);
            CREATE TABLE suggestedWidgets (widgetUniqueId TEXT, firstAppearDate REAL);
            CREATE TABLE widgetReloadForSuggestion (timestamp REAL, readyForDisplay INTEGER, extensionBundleId TEXT, kind TEXT, family INTEGER, intentHash INTEGER);
            CREATE TABLE abuseControlOutcomes (suggestionId TEXT, timestamp REAL, outcome INTEGER);
            CREATE TABLE widgetSuggestionDismiss (extensionBundleId TEXT, kind TEXT, intentHash INTEGER, date REAL, duration REAL);
            ''')
            db.executemany("INSERT INTO proactiveStackRotations (suggestionId, criterion, widgetBundleId, widgetKind, isStalenessRotation, rotationTimestamp) VALUES (?,?,?,?,?,?)", [
                ("s1", 7, "com.apple.weather.widget", "com.apple.weather", 0, 657541440.0),
                ("s2", 3, "com.apple.mobileslideshow.PhotosReliveWidget", "com.apple.mobileslideshow.PhotosReliveWidget", 1, 657541800.0)])
            db.execute("INSERT INTO timelineDonations VALUES (657541200.0, 42.5, 1800, 'com.apple.weather.widget', 'com.apple.weather', 'com.apple.weather', 2, 11, 's1', 0)")
            db.execute("INSERT INTO widgetEngagements VALUES (?, 'com.apple.mobileslideshow.PhotosReliveWidget', 'com.apple.mobileslideshow.PhotosReliveWidget', 2, 0, 657541500.0, 1, 'com.apple.mobileslideshow')", (sys.argv[2],))
            db.execute("INSERT INTO suggestedWidgets VALUES (?, 657541300.0)", (sys.argv[2],))
            db.execute("INSERT INTO suggestedWidgets VALUES ('UNKNOWN-ID', 657541300.0)")
            db.execute("INSERT INTO widgetReloadForSuggestion VALUES (657541250.0, 1, 'com.apple.weather.widget', 'com.apple.weather', 2, 0)")
            db.execute("INSERT INTO widgetSuggestionDismiss VALUES ('com.apple.mobileslideshow.PhotosReliveWidget', 'com.apple.mobileslideshow.PhotosReliveWidget', 0, 657541700.0, 12.5)")
            db.executemany("INSERT INTO abuseControlOutcomes VALUES (?,?,?)", [("s1", 1.0, 0), ("s2", 2.0, 1)])
            db.commit()
            """
        let r = try CLI.run(
            executable: "/usr/bin/python3", ["-c", script, dir + "/_ATXInfoSuggestionStore.db", Self.photos])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(
        "its records become the device's own rotations, relevance, engagements and suggestions; replay compares the rotations"
    )
    func records() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try DeviceLayoutTests().extraction(dir)
        try writeStore(into: root)
        let r = CLI.call([
            "import", "extraction", root, "--device", "phone", "--layout-time", "2021-12-16T12:00:00Z", "--store",
            dir.store,
        ])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // Two rotations, one donation, one tap, one suggestion, one dismissal; the unknown
        // suggestion and the reload without its app are named, the other table counted.
        #expect(r.stdout.contains("\natx\t1\t6\t0\t0\t2\t0"), "\(r.stdout)")
        #expect(r.stdout.contains("table abuseControlOutcomes: 2 rows, not read"))
        #expect(
            r.stdout.contains("UNKNOWN-ID: no widgetEngagements row names this widget's kind and bundle; not guessed"))
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        for type in [
            "stack.rotated", "widget.relevanceObserved", "widget.tapped", "suggestion.observed", "suggestion.dismissed",
        ] {
            #expect(log.contains(#""type":"\#(type)""#), "\(type)")
        }
        #expect(log.contains(#""time":"2021-11-02T10:24:00Z""#) && log.contains(#""criterion":"7""#))
        #expect(
            log.contains(
                #""kind":"com.apple.mobileslideshow.PhotosReliveWidget","extension":"com.apple.mobileslideshow.PhotosReliveWidget","intentHash":"0","recordedDuration":12.5"#
            ), "\(log)")

        let replay = CLI.call([
            "replay", "--store", dir.store, "--device", "phone", "--from", "2021-11-02T10:00:00Z", "--to",
            "2021-11-02T11:00:00Z", "--disagreements",
        ])
        // The rotation to Weather agrees (the model has it on top); the one to Photos does not.
        #expect(
            replay.stdout.contains("a Smart Rotate to com.apple.mobileslideshow.PhotosReliveWidget"), "\(replay.stdout)"
        )
        #expect(replay.stdout.contains("criterion 3, a staleness rotation"))
        #expect(!replay.stdout.contains("a Smart Rotate to com.apple.weather"))
        // The tap on Photos names the widget shown; the model had Weather on top then.
        #expect(replay.stdout.contains("PhotosReliveWidget (1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D) tapped"))
        #expect(
            replay.stdout.contains("3 records name the widget shown: 1 agrees with the model, 2 disagree"),
            "\(replay.stdout)")
        #expect(replay.stdout.contains("2 records say only that the stack was on screen"))
    }
}

extension DuetExpertStoreTests {
    @Test(
        "a row whose column holds the wrong kind of value fails alone, naming the column; an identifier written as text is kept as text"
    )
    func wrongKindOfValue() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let db = dir.path + "/_ATXInfoSuggestionStore.db"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE proactiveStackRotations (suggestionId, criterion, widgetBundleId, widgetKind, intentHash, isStalenessRotation, rotationTimestamp)")
            db.execute("CREATE TABLE timelineDonations (timestamp, score, duration, extensionBundleId, containerBundleIdentifier, widgetKind, widgetFamily, intentHash)")
            db.executemany("INSERT INTO proactiveStackRotations VALUES (?,?,?,?,?,?,?)", [
                ("s1", "relevance", "com.apple.weather.widget", "com.apple.weather", "h-1", 0, 657541440.0),
                ("s2", 3, "com.apple.weather.widget", "com.apple.weather", 5, 0, "later"),
                ("s3", 3, "com.apple.weather.widget", "com.apple.weather", 5, "no", 657541500.0)])
            db.executemany("INSERT INTO timelineDonations VALUES (?,?,?,?,?,?,?,?)", [
                (657541200.0, 42.5, 1800, "com.apple.weather.widget", "com.apple.weather", "com.apple.weather", 2, "abc"),
                (657541260.0, "high", 1800, "com.apple.weather.widget", "com.apple.weather", "com.apple.weather", 2, 11),
                (657541320.0, 10, 1800, bytes([255, 0]), "com.apple.weather", "com.apple.weather", 2, 11)])
            db.commit()
            """
        let w = try CLI.run(executable: "/usr/bin/python3", ["-c", script, db])
        #expect(w.status == 0, "\(w.stderr)")
        let r = CLI.call(["import", "atx", db, "--device", "phone", "--store", dir.store])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        for line in [
            "2: proactiveStackRotations row: rotationTimestamp holds the text \"later\", not a number",
            "3: proactiveStackRotations row: isStalenessRotation holds the text \"no\", not an integer",
            "2: timelineDonations row: score holds the text \"high\", not a number",
            "3: timelineDonations row: extensionBundleId holds a BLOB, not text",
        ] {
            #expect(r.stdout.contains(line), "\(r.stdout)")
        }
        let log = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(log.contains(#""criterion":"relevance""#) && log.contains(#""intentHash":"h-1""#), "\(log)")
        #expect(log.contains(#""intentHash":"abc""#), "\(log)")
        #expect(log.split(separator: "\n").count == 2)
    }
}

/// docs/events.md: duplicates of imported events are judged without `source`.
@Suite("The same record through another path")
struct ImportedDuplicateTests {
    @Test("a file imported alone, then within its extraction at another path, is stored once")
    func samePowerLogTwice() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try DeviceLayoutTests().extraction(dir)
        let first = CLI.call([
            "import", "powerlog", Fixtures.path("data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"), "--device",
            "phone", "--store", dir.store,
        ])
        #expect(first.status == 0)
        let again = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("\npowerlog\t1\t0\t16\t"), "\(again.stdout)")
        let stats = CLI.call(["log", "--store", dir.store, "--json"]).stdout
        #expect(stats.split(separator: "\n").filter { $0.contains("PLApplicationAgent") }.count == 16)
    }
}

/// docs/importing.md, "Stacks inferred from PowerLog".
@Suite("Stacks inferred from PowerLog")
struct PowerLogInferenceTests {
    /// A PowerLog whose two in-stack widgets of one size alternate over three periods.
    func alternating(_ dir: WorkDirectory) throws -> String {
        let path = dir.file("CurrentPowerlog.PLSQL")
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE PLApplicationAgent_EventBackward_WidgetStats (ID INTEGER PRIMARY KEY, timestamp REAL, bundleID TEXT, kind TEXT, isInStack INTEGER, totalTimeSpentOnScreen REAL, identifier TEXT, size INTEGER, location INTEGER, page INTEGER, suggestionIdentifier TEXT)")
            rows = [(1635848700.0, "com.apple.weather.widget", "eather", "W-1"),
                    (1635849300.0, "com.apple.mobileslideshow.PhotosReliveWidget", "Widget", "P-1"),
                    (1635849900.0, "com.apple.weather.widget", "eather", "W-1")]
            for t, b, k, i in rows:
                db.execute("INSERT INTO PLApplicationAgent_EventBackward_WidgetStats (timestamp, bundleID, kind, isInStack, totalTimeSpentOnScreen, identifier, size, location, page) VALUES (?,?,?,1,60,?,2,3,1)", (t, b, k, i))
            db.commit()
            """
        let r = try CLI.run(executable: "/usr/bin/python3", ["-c", script, path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test("alternating in-stack widgets become one inferred stack; its own records are not judged against it")
    func inferred() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let r = CLI.call(["import", "powerlog", try alternating(dir), "--store", dir.store])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("inferred stack inferred:powerlog:2-3-1 of eather, Widget from 3 rows"), "\(r.stdout)")
        let state = CLI.call(["state", "--store", dir.store, "--at", "2021-11-02T10:30:00Z"]).stdout
        #expect(state.contains("inferred:powerlog:2-3-1"), "\(state)")
        #expect(state.contains("LAYOUT_INFERRED") && !state.contains("LAYOUT_ASSUMED"))
        // Before its first on-screen period (10:24 to 10:25), the inferred stack is assumed too.
        let before = CLI.call(["state", "--store", dir.store, "--at", "2021-11-02T10:20:00Z"]).stdout
        #expect(before.contains("LAYOUT_ASSUMED") && before.contains("LAYOUT_INFERRED"), "\(before)")
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2021-11-02T00:00:00Z", "--to", "2021-11-03T00:00:00Z",
            "--disagreements",
        ])
        #expect(
            replay.stdout.contains("0 records name the widget shown: 0 agree with the model, 0 disagree"),
            "\(replay.stdout)")
        #expect(replay.stdout.contains("the layout it would be judged against was inferred from the same records (3)"))
    }

    @Test("the real sample's in-stack widgets share their periods: nothing is inferred, and the report says why")
    func realSample() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let r = CLI.call([
            "import", "powerlog", Fixtures.path("data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"), "--store",
            dir.store,
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout.contains(
                "no stack inferred for size 2, location 3, page unknown: Widget, eather were on screen in the same period"
            ), "\(r.stdout)")
        let state = CLI.call(["state", "--store", dir.store, "--at", "2021-11-02T10:30:00Z"]).stdout
        #expect(state.contains("no stacks"))
    }
}

/// DesiredIconState.plist beside IconState.plist: two records of the same stacks.
@Suite("Two records of one layout")
struct DesiredLayoutTests {
    @Test("DesiredIconState.plist is imported too, and the report says where it differs from IconState.plist")
    func differences() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try DeviceLayoutTests().extraction(dir)
        let desired = IconStateWriter.encode(pages: [
            [
                .stack(
                    "STACK-1", gridSize: "medium",
                    [
                        IconStateWriter.Element(
                            "1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D",
                            kind: "com.apple.mobileslideshow.PhotosReliveWidget",
                            app: "com.apple.mobileslideshow",
                            extensionBundle: "com.apple.mobileslideshow.PhotosReliveWidget")
                    ]),
                .stack(
                    "STACK-2",
                    [
                        IconStateWriter.Element(
                            "R-1", kind: "reminders", app: "com.apple.reminders", extensionBundle: "x")
                    ]),
            ]
        ])
        try Data(desired).write(
            to: URL(fileURLWithPath: root + "/private/var/mobile/Library/SpringBoard/DesiredIconState.plist"))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_639_656_000)],
            ofItemAtPath: root + "/private/var/mobile/Library/SpringBoard/DesiredIconState.plist")
        let r = CLI.call(["import", "extraction", root, "--device", "phone", "--store", dir.store])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("iconstate\t2\t2\t"), "\(r.stdout)")
        #expect(r.stdout.contains("  stack STACK-2 is in DesiredIconState.plist only"))
        #expect(
            r.stdout.contains(
                "  stack STACK-1: DesiredIconState.plist lists 1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D; IconState.plist lists F31E834E-D601-44B4-8665-010AB688D28A, 1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D"
            ))
    }
}

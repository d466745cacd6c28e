import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("Protobuf, binary plist and NSKeyedArchiver readers")
struct WireFormatTests {
    @Test("protobuf fields are read by number, nested messages by path")
    func protobufFields() throws {
        var w = ProtobufWriter()
        w.string(2, "com.example.app")
        w.int(3, 1)
        w.double(4, 700_000_000.5)
        w.message(8) { m in m.message(5) { p in p.string(2, "Home") } }
        let m = try ProtobufMessage(w.bytes[...])
        #expect(m.string(2) == "com.example.app")
        #expect(m.integer(3) == 1)
        #expect(m.double(4) == 700_000_000.5)
        #expect(m.message(path: [8, 5])?.string(2) == "Home")
        #expect(m.string(9) == nil)
    }

    @Test(
        "truncated or malformed protobuf is an error naming the byte",
        arguments: [
            [UInt8]([0x12, 0x05, 0x61]), // field 2 claims 5 bytes, has 1
            [0x08, 0xFF, 0xFF], // varint never ends
            [0x0B, 0x00], // wire type 3 (group)
            [0x09, 0x01, 0x02], // fixed64 cut short
        ])
    func protobufErrors(bytes: [UInt8]) {
        #expect(throws: WireFormatError.self) { try ProtobufMessage(bytes[...]) }
    }

    @Test("protobuf nesting past the limit is refused")
    func protobufDepth() throws {
        var bytes: [UInt8] = [0x08, 0x01]
        for _ in 0..<(ProtobufMessage.maximumDepth + 2) {
            var w = ProtobufWriter()
            w.bytes(1, bytes)
            bytes = w.bytes
        }
        let m = try ProtobufMessage(bytes[...])
        #expect(m.message(path: Array(repeating: 1, count: ProtobufMessage.maximumDepth + 2)) == nil)
        #expect(m.message(path: Array(repeating: 1, count: 3)) != nil)
    }

    @Test("a keyed archive round-trips: objects, arrays, dates, strings, numbers, null")
    func keyedArchive() throws {
        let bytes = KeyedArchiveWriter.archive(
            .object(
                "INRelevantShortcut",
                [
                    ("widgetKind", .string("CalendarWidget")),
                    ("shortcutRole", .int(1)),
                    ("title", .string("Café ☕")),
                    ("shortcut", .object("INShortcut", [("intent", .null)])),
                    (
                        "relevanceProviders",
                        .array([
                            .object("INDateRelevanceProvider", [("startDate", .date(100)), ("endDate", .date(200))])
                        ])
                    ),
                ]))
        let v = try KeyedArchive.decode(bytes[...])
        #expect(v["$class"]?.string == "INRelevantShortcut")
        #expect(v["widgetKind"]?.string == "CalendarWidget")
        #expect(v["shortcutRole"]?.integer == 1)
        #expect(v["title"]?.string == "Café ☕")
        #expect(v.value(at: "shortcut", "intent") == .null)
        let p = try #require(v["relevanceProviders"]?.array?.first)
        #expect(p["startDate"] == .date(100))
        #expect(p["endDate"]?.cocoaTime == 200)
    }

    @Test("the keyed archives the tests write are read the same way by Python's plistlib")
    func keyedArchiveByPlistlib() throws {
        let bytes = KeyedArchiveWriter.archive(
            .object(
                "INRelevantShortcut",
                [
                    ("widgetKind", .string("CalendarWidget")),
                    ("shortcutRole", .int(1)),
                    ("title", .string("Café ☕")),
                    (
                        "relevanceProviders",
                        .array([
                            .object("INDateRelevanceProvider", [("startDate", .date(100)), ("endDate", .date(200))])
                        ])
                    ),
                ]))
        // An independent reader resolves the archive's UIDs and prints what it finds.
        let script = """
            import plistlib, sys
            p = plistlib.load(open(sys.argv[1], "rb"))
            o = p["$objects"]
            def r(x): return o[x.data] if isinstance(x, plistlib.UID) else x
            root = r(p["$top"]["root"])
            cls = r(root["$class"])["$classname"]
            prov = r(r(root["relevanceProviders"])["NS.objects"][0])
            print(p["$archiver"], cls, r(root["widgetKind"]), root["shortcutRole"], r(root["title"]),
                  r(prov["$class"])["$classname"], r(prov["startDate"])["NS.time"], r(prov["endDate"])["NS.time"], sep="|")
            """
        let out = try IndependentReader.python(script, reading: bytes)
        #expect(
            out == "NSKeyedArchiver|INRelevantShortcut|CalendarWidget|1|Café ☕|INDateRelevanceProvider|100.0|200.0",
            "\(out)")
    }

    @Test("the protobuf payloads the tests write are read the same way by protoc --decode_raw")
    func protobufByProtoc() throws {
        func hex(_ d: Double) -> String { "0x" + String(d.bitPattern, radix: 16).leftPadded(to: 16) }
        let transcript = BiomePayloads.transcript(
            app: "com.example.music", intentClass: "INPlayMediaIntent",
            unixTime: 1_700_000_000.25, parameters: [("mediaItems", "Blue in Green ☕")])
        #expect(
            try IndependentReader.protocDecodeRaw(transcript) == """
                1: "com.example.music"
                4: \(hex(1_700_000_000.25))
                5 {
                  1: "INPlayMediaIntent"
                  7 {
                    1: "mediaItems"
                    2 {
                      3 {
                        1 {
                          1: "Blue in Green \\342\\230\\225"
                        }
                      }
                    }
                  }
                }
                """)
        let visit = BiomePayloads.visit(
            latitude: 48.8566, longitude: 2.3522, accuracy: 35, arrival: 700_000_000, departure: 700_003_600,
            place: "Zoo")
        #expect(
            try IndependentReader.protocDecodeRaw(visit) == """
                1: \(hex(700_000_000))
                3 {
                  1: \(hex(48.8566))
                  2: \(hex(2.3522))
                  3: \(hex(35))
                }
                4: \(hex(700_000_000))
                5: \(hex(700_003_600))
                8 {
                  5 {
                    2: "Zoo"
                  }
                }
                """)
        let focus = BiomePayloads.inFocus(app: "com.example.cards", start: 700_000_123.5, foreground: true)
        #expect(
            try IndependentReader.protocDecodeRaw(focus) == """
                3: 1
                4: \(hex(700_000_123.5))
                6: "com.example.cards"
                """)
        // And the project's reader finds the same values at the same field numbers.
        let m = try ProtobufMessage(transcript[...])
        #expect(m.string(1) == "com.example.music")
        #expect(m.double(4) == 1_700_000_000.25)
        #expect(m.message(path: [5, 7, 2, 3, 1])?.string(1) == "Blue in Green ☕")
    }

    @Test("an App.RelevantShortcuts archive is read the same way by Python's plistlib")
    func relevantShortcutArchiveByPlistlib() throws {
        let bytes = BiomePayloads.relevantShortcutArchive(
            widgetKind: "CalendarWidget", role: 0, intentClass: "INSendMessageIntent",
            providers: [.region(latitude: 48.85, longitude: 2.35, radius: 200), .dailyRoutine(3)])
        let script = """
            import plistlib, sys
            p = plistlib.load(open(sys.argv[1], "rb"))
            o = p["$objects"]
            def r(x): return o[x.data] if isinstance(x, plistlib.UID) else x
            root = r(p["$top"]["root"])
            intent = r(r(root["shortcut"])["intent"])
            ps = [r(x) for x in r(root["relevanceProviders"])["NS.objects"]]
            region = r(ps[0]["region"])
            print(r(root["widgetKind"]), root["shortcutRole"], r(intent["$class"])["$classname"], r(intent["intentClassName"]),
                  r(ps[0]["$class"])["$classname"], region["kCLRegionCodingKeyCenterLatitude"], region["kCLRegionCodingKeyRadius"],
                  r(ps[1]["$class"])["$classname"], ps[1]["situation"], sep="|")
            """
        let out = try IndependentReader.python(script, reading: bytes)
        #expect(
            out
                == "CalendarWidget|0|INSendMessageIntent|INSendMessageIntent|INLocationRelevanceProvider|48.85|200.0|INDailyRoutineRelevanceProvider|3",
            "\(out)")
    }

    @Test("a binary plist with a reference cycle or bad trailer is an error, not a hang")
    func plistErrors() throws {
        // A one-element array whose element is itself.
        var cyclic = Array("bplist00".utf8)
        cyclic += [0xA1, 0x00]
        let table = cyclic.count
        cyclic += [8]
        cyclic +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0, UInt8(table),
            ]
        #expect(throws: WireFormatError.self) { try BinaryPlist.parse(cyclic[...]) }
        var bad = BinaryPlistWriter.encode(.string("x"))
        bad[bad.count - 9] = 0xFF // offset table offset past the end
        #expect(throws: WireFormatError.self) { try BinaryPlist.parse(bad[...]) }
        #expect(throws: WireFormatError.self) {
            try KeyedArchive.decode(BinaryPlistWriter.encode(.string("not an archive"))[...])
        }
    }
}

@Suite("Inputs the fuzzers found")
struct FuzzRegressionTests {
    func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("fuzz-regressions/" + name))))
    }

    @Test("a binary plist UID larger than any index is an error, not a trap")
    func plistUID() throws {
        let bytes = try fixture("plist-uid-overflow.bin")
        #expect(throws: WireFormatError.self) { try BinaryPlist.parse(bytes[...]) }
    }

    @Test("a binary plist reference wider than any index is an error, not a trap")
    func plistReference() throws {
        let bytes = try fixture("plist-reference-overflow.bin")
        #expect(throws: WireFormatError.self) { try BinaryPlist.parse(bytes[...]) }
    }

    @Test("a PAX record whose length is shorter than its own length field is passed over, not a trap")
    func paxRecordLength() throws {
        let bytes = try fixture("archive-pax-record-shorter-than-its-length.bin")
        let path = NSTemporaryDirectory() + "stackledger-pax-\(UUID().uuidString).tar"
        try Data(bytes.dropFirst()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // It reads, or it is refused with a reason; a trap would end the test process.
        switch Result(catching: { try ArchiveWalk.walk(path: path) }) {
        case .success(let members): #expect(members >= 0)
        case .failure(let error): #expect(error is ImportError, "\(error)")
        }
    }

    @Test("a record whose time lies outside 1970-2200 is refused by the decoder, not written out")
    func recordTime() throws {
        let bytes = try fixture("record-time-out-of-range.bin")
        #expect(throws: LedgerError.self) {
            try bytes.withUnsafeBytes { raw in
                try RecordView.decodeUnchecked(
                    raw,
                    strings: [
                        "default", "widget.timeline", "com.example.cards", "CardWidget", "w1", "home-1",
                        "stack.created", "iOS", "systemSmall", "context.changed",
                    ]
                ) { view in _ = try Event(record: view) }
            }
        }
    }
}

/// Readers independent of the project's: Python 3's standard library and `protoc`.
enum IndependentReader {
    /// Runs `script` with the path of a temporary file holding `bytes` as its argument.
    static func python(_ script: String, reading bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "stackledger-independent-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try python(script, path)
    }

    /// What `protoc --decode_raw` (Debian's protobuf-compiler) prints for `bytes`.
    static func protocDecodeRaw(_ bytes: [UInt8]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/protoc")
        p.arguments = ["--decode_raw"]
        let input = Pipe()
        let out = Pipe()
        p.standardInput = input
        p.standardOutput = out
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw ReaderFailed(tool: "protoc --decode_raw", status: p.terminationStatus)
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ReaderFailed: Error {
        var tool: String
        var status: Int32
    }

    static func python(_ script: String, _ arguments: String...) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension String {
    /// The text with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("SEGB containers: the real Biome files")
struct SEGBFixtureTests {
    static let lowPower = "data/biome/Device.Power.LowPowerMode.v1.segb"
    static let trueTone = "data/biome/Device.Display.TrueTone.v2.segb"

    func file(_ fixture: String) throws -> SEGBFile {
        try SEGBFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture)))))
    }

    @Test("the fixtures are the files NOTICE.md names")
    func checksums() throws {
        #expect(try md5(Fixtures.path(Self.lowPower)) == "ddc6a585844a080d2987dce683757e9c")
        #expect(try md5(Fixtures.path(Self.trueTone)) == "385ee19b06ed5efd107a8ee12e439ca1")
    }

    @Test("LowPowerMode v1: 16 records of 2 bytes, stride 40, 12 deleted and 4 written with valid CRCs")
    func lowPowerModeV1() throws {
        let f = try file(Self.lowPower)
        #expect(f.version == .v1)
        #expect(f.records.count == 16)
        #expect(f.records.filter { $0.state == .deleted }.count == 12)
        let written = f.records.filter { $0.state == .written }
        #expect(written.count == 4)
        #expect(written.allSatisfy { $0.crcValid == true })
        #expect(f.records.map(\.offset) == (0..<16).map { 56 + 40 * $0 })
        #expect(f.records.allSatisfy { $0.payload.count == 2 })
        // The file name field is the creation time in Cocoa microseconds, equal to the first
        // record's time: 2023-07-01T20:16:19.803658Z.
        #expect(f.createdCocoaTime == 709_935_379.803658)
        #expect(abs(f.records[0].cocoaTime - 709_935_379.803658) < 1e-5)
        #expect(f.records.last!.payload.upperBound <= 696)
    }

    @Test("TrueTone v2: 3 deleted slots at 32/44/56, 4 written at 68/80/92/104 holding field 1 = 1")
    func trueToneV2() throws {
        let f = try file(Self.trueTone)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.trueTone))))
        #expect(f.version == .v2)
        #expect(f.records.map(\.offset) == [32, 44, 56, 68, 80, 92, 104])
        #expect(f.records.prefix(3).allSatisfy { $0.state == .deleted && $0.crcValid == nil })
        #expect(f.records.suffix(4).allSatisfy { $0.state == .written && $0.crcValid == true })
        #expect(f.records.suffix(4).allSatisfy { Array(bytes[$0.payload]) == [0x08, 0x01] })
    }

    @Test("a v2 file with zeros appended after its trailer is an error, not an empty file")
    func bytesAppended() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.trueTone))))
        for extra in [112, 1024, 32 * 1024] {
            #expect(throws: SEGBError.self, "\(extra) bytes appended") {
                try SEGBFile(bytes: bytes + [UInt8](repeating: 0, count: extra))
            }
        }
        // Short appends shift the trailer by less than its seven entries: zeros, random
        // bytes, or a copy of the file's own last entry.
        var rng = SplitMix64(seed: 5)
        for extra in [1, 4, 8, 15, 16, 17, 32, 48, 96] {
            let zeros = [UInt8](repeating: 0, count: extra)
            let noise = (0..<extra).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let lastEntry = Array(bytes.suffix(16).prefix(extra))
            for (name, tail) in [("zeros", zeros), ("noise", noise), ("a trailer entry", lastEntry)] {
                #expect(throws: SEGBError.self, "\(extra) bytes of \(name) appended") {
                    try SEGBFile(bytes: bytes + tail)
                }
            }
        }
        #expect(try SEGBFile(bytes: bytes).records.count == 7)
    }

    @Test("importing the real files yields one context event per written record, with provenance")
    func importReal() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let ledger = try s.ledger()
        var options = ImportRun.Options()
        options.device = "iphone11"
        let a = try ImportRun(format: .segb, options: options).run(path: Fixtures.path(Self.lowPower), into: ledger)
        let b = try ImportRun(format: .segb, options: options).run(path: Fixtures.path(Self.trueTone), into: ledger)
        #expect(a.map(\.imported) == [4] && a[0].deleted == 12 && a[0].failed == 0)
        #expect(b.map(\.imported) == [4] && b[0].deleted == 3 && b[0].failed == 0)
        #expect(a[0].stream == "Device.Power.LowPowerMode" && b[0].stream == "Device.Display.TrueTone")
        let events = try ledger.storedEvents()
        #expect(events.count == 8)
        let trueTone = events.suffix(4)
        #expect(trueTone.allSatisfy { canonical($0).contains("\"context\":{\"device\":\"trueTone\"},\"active\":true") })
        let source = try #require(trueTone.first?.envelope.source)
        #expect(source.artifact == (try sha256(Fixtures.path(Self.trueTone))))
        #expect(source.path == "Device.Display.TrueTone.v2.segb")
        #expect(source.stream == "Device.Display.TrueTone")
        #expect(source.locatorJSON == "68")
        #expect(trueTone.first?.envelope.device == "iphone11")
        // Importing again adds nothing.
        let again = try ImportRun(format: .segb, options: options).run(path: Fixtures.path(Self.trueTone), into: ledger)
        #expect(again[0].imported == 0 && again[0].duplicates == 4)
        #expect(try ledger.lastStoredSeq() == 8)
    }

    @Test("a flipped payload byte fails that record's CRC; the file's other records are kept")
    func crcMismatch() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.trueTone))))
        bytes[80 + 8 + 1] ^= 0x04
        let path = try s.write("Device.Display.TrueTone.v2.segb", bytes)
        let reports = try ImportRun(format: .segb).run(path: path, into: try s.ledger())
        #expect(reports[0].failed == 1)
        #expect(reports[0].imported == 3)
        #expect(reports[0].problems.contains { $0.hasPrefix("80: CRC-32 mismatch") })
    }

    @Test(
        "a file that cannot be read imports nothing and names the offset",
        arguments: [
            ("bad magic", 0),
            ("truncated trailer", 1),
            ("v1 end past the file", 2),
            ("too short", 3),
        ])
    func unreadable(_ name: String, _ damage: Int) throws {
        let s = try Scratch()
        defer { s.cleanup() }
        var bytes: [UInt8]
        switch damage {
        case 0:
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.trueTone))))
            bytes[0] = 0x58
        case 1:
            bytes = Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.trueTone)))).prefix(200))
        case 2:
            bytes = Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(Self.lowPower)))).prefix(400))
        default:
            bytes = Array("SEGB".utf8)
        }
        let path = try s.write("Device.Display.TrueTone.v2.segb", bytes)
        let ledger = try s.ledger()
        let reports = try ImportRun(format: .segb).run(path: path, into: ledger)
        let error = try #require(reports[0].error)
        #expect(error.contains("byte"))
        #expect(reports[0].imported == 0)
        #expect(try ledger.lastStoredSeq() == 0)
    }
}

@Suite("Artifact limits")
struct ArtifactLimitTests {
    @Test("an SEGB v2 header declaring more trailer entries than the limit is refused, naming the limit")
    func segbEntries() throws {
        var bytes = Array("SEGB".utf8) + [UInt8](repeating: 0, count: 60)
        let count = UInt32(SEGBFile.maximumEntries + 1)
        for k in 0..<4 { bytes[4 + k] = UInt8((count >> (8 * UInt32(k))) & 0xFF) }
        #expect { try SEGBFile(bytes: bytes) } throws: {
            ($0 as? SEGBError)?.message.contains("the limit is \(SEGBFile.maximumEntries)") == true
        }
    }

    @Test("a plist with more objects than the limit is refused")
    func plistObjects() throws {
        var bytes = BinaryPlistWriter.encode(.string("x"))
        let n = UInt64(BinaryPlist.maximumObjects + 1)
        for k in 0..<8 { bytes[bytes.count - 24 + k] = UInt8((n >> (8 * UInt64(7 - k))) & 0xFF) }
        #expect(throws: WireFormatError.self) { try BinaryPlist.parse(bytes[...]) }
    }

    @Test("a keyed archive nested past the limit is an error, one at the limit is read")
    func archiveDepth() throws {
        func nested(_ depth: Int) -> ArchiveValue {
            var v = ArchiveValue.string("leaf")
            for _ in 0..<depth { v = .object("Box", [("inner", v)]) }
            return v
        }
        let deep = KeyedArchiveWriter.archive(nested(KeyedArchive.maximumDepth + 5))
        #expect(throws: WireFormatError.self) { try KeyedArchive.decode(deep[...]) }
        let fine = KeyedArchiveWriter.archive(nested(10))
        #expect(throws: Never.self) { try KeyedArchive.decode(fine[...]) }
    }
}

extension ArtifactLimitTests {
    @Test("an artifact file over 1 GiB is refused before it is read, naming the limit")
    func fileSize() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        let path = s.path + "/Device.ScreenLocked.segb"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(1 << 30) + 1) // sparse: no disk used
        try handle.close()
        let report = try ImportRun(format: .segb).run(path: path, into: try s.ledger())[0]
        #expect(report.error?.contains("the limit for one artifact file is 1073741824 bytes") == true)
    }
}

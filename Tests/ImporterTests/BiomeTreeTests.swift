import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// A generated extraction: a Biome tree with intent, relevant-shortcut, transcript,
/// foreground, visit and backlight streams, in both container versions.
struct GeneratedBiome {
    /// 2026-11-20T08:00:00Z in Cocoa seconds.
    static let morning = 816_854_400.0
    let scratch: Scratch
    var root: String { scratch.path + "/extraction" }
    let streams = "extraction/private/var/mobile/Library/Biome/streams"

    init() throws {
        scratch = try Scratch()
        let t = Self.morning
        var intents = SEGBWriter(version: 2, created: t)
        intents.records = [
            .init(
                time: t + 60,
                payload: BiomePayloads.appIntent(
                    app: "com.example.festival", intentClass: "FestivalIntent", verb: "Open",
                    start: t + 60, end: t + 61, identifier: "D1", groupIdentifier: "g1")),
            .init(state: 3, time: t + 120, payload: [UInt8](repeating: 0, count: 40)),
            .init(
                time: t + 180,
                payload: BiomePayloads.appIntent(
                    app: "com.example.festival", intentClass: "FestivalIntent", verb: "Open",
                    start: t + 180, end: t + 181, identifier: "D2")),
        ]
        try scratch.write("\(streams)/restricted/App.Intent/local/\(Int64(t * 1e6))", intents.bytes(fileSize: 4096))

        var shortcuts = SEGBWriter(version: 1, created: t)
        shortcuts.records = [
            .init(
                time: t,
                payload: BiomePayloads.relevantShortcut(
                    app: "com.example.calendar", widgetKind: "CalendarWidget", role: 1, intentClass: nil,
                    providers: [.date(start: t + 5400, end: t + 7200)])),
            .init(
                time: t,
                payload: BiomePayloads.relevantShortcut(
                    app: "com.example.calendar", widgetKind: "CalendarWidget", role: 0, intentClass: "ShowDayIntent",
                    providers: [.region(latitude: 48.85, longitude: 2.35, radius: 200), .dailyRoutine(0)])),
            .init(
                time: t + 3600,
                payload: BiomePayloads.relevantShortcut(
                    app: "com.example.calendar", widgetKind: "CalendarWidget", role: 1, intentClass: nil, providers: [])
            ),
        ]
        try scratch.write("\(streams)/public/App.RelevantShortcuts/local/\(Int64(t * 1e6))", shortcuts.bytes())

        var transcript = SEGBWriter(version: 2, created: t)
        transcript.records = [
            .init(
                time: t + 30,
                payload: BiomePayloads.transcript(
                    app: "com.example.cards", intentClass: "CardIntent",
                    unixTime: t + 30 + 978_307_200, parameters: [("card", "Visa"), ("range", "week")]))
        ]
        try scratch.write("\(streams)/restricted/App.Intents.Transcript/local/1", transcript.bytes())

        var focus = SEGBWriter(version: 2, created: t)
        focus.records = [
            .init(
                time: t + 10, payload: BiomePayloads.inFocus(app: "com.example.cards", start: t + 10, foreground: true)),
            .init(
                time: t + 70, payload: BiomePayloads.inFocus(app: "com.example.cards", start: t + 70, foreground: false)
            ),
            .init(
                time: t + 80, payload: BiomePayloads.inFocus(app: "com.example.maps", start: t + 80, foreground: true)),
        ]
        try scratch.write("\(streams)/restricted/App.InFocus/local/1", focus.bytes())

        var visit = SEGBWriter(version: 2, created: t)
        visit.records = [
            .init(
                time: t,
                payload: BiomePayloads.visit(
                    latitude: 48.85, longitude: 2.35, accuracy: 50, arrival: t, departure: t + 3600, place: "Office"))
        ]
        try scratch.write("\(streams)/restricted/Location.Visit/local/1", visit.bytes())

        var backlight = SEGBWriter(version: 2, created: t)
        backlight.records = [
            .init(time: t, payload: BiomePayloads.backlight(time: t, state: 1)),
            .init(time: t + 5, payload: BiomePayloads.backlight(time: t + 5, state: 17)),
        ]
        try scratch.write("\(streams)/restricted/Device.Display.Backlight/local/1", backlight.bytes())

        var other = SEGBWriter(version: 2, created: t)
        other.records = [.init(time: t, payload: BiomePayloads.deviceState(1))]
        try scratch.write("\(streams)/restricted/Some.Other.Stream/local/1", other.bytes())
        try scratch.write("\(streams)/restricted/App.InFocus/tombstone/1", other.bytes())
    }
}

@Suite("SEGB: generated Biome trees")
struct BiomeTreeTests {
    func importTree(_ g: GeneratedBiome, ledger: Ledger) throws -> [ImportFileReport] {
        var options = ImportRun.Options()
        options.root = g.root
        options.device = "phone"
        return try ImportRun(format: .segb, options: options).run(path: g.scratch.path + "/" + g.streams, into: ledger)
    }

    @Test("every stream of the tree becomes the documented events, with paths relative to the root")
    func wholeTree() throws {
        let g = try GeneratedBiome()
        defer { g.scratch.cleanup() }
        let ledger = try g.scratch.ledger()
        let reports = try importTree(g, ledger: ledger)
        #expect(reports.count == 7) // the tombstone directory is passed over
        let byStream = Dictionary(reports.map { ($0.stream ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byStream["App.Intent"]?.imported == 2 && byStream["App.Intent"]?.deleted == 1)
        #expect(byStream["App.RelevantShortcuts"]?.imported == 2)
        #expect(byStream["App.InFocus"]?.imported == 2 && byStream["App.InFocus"]?.skipped == 1)
        #expect(byStream["Location.Visit"]?.imported == 2)
        #expect(byStream["Some.Other.Stream"]?.imported == 0 && byStream["Some.Other.Stream"]?.skipped == 1)
        #expect(byStream["Some.Other.Stream"]?.problems.first?.contains("not one StackLedger reads") == true)
        let lines = try ledger.storedEvents().map(canonical)
        let t0 = "2026-11-20T08:"
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "{\"type\":\"intent.donated\",\"time\":\"\(t0)01:00Z\",\"device\":\"phone\",\"app\":\"com.example.festival\""
                )
                    && $0.contains(
                        "\"api\":\"siriKit\",\"intent\":{\"intent\":\"FestivalIntent\"},\"donationId\":\"D1\",\"groupIdentifier\":\"g1\""
                    )
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"shortcuts.relevantSet\"") && $0.contains("\"time\":\"\(t0)00:00Z\"")
                    && $0.contains(
                        "\"shortcuts\":[{\"widgetKind\":\"CalendarWidget\",\"role\":\"information\",\"intent\":null,\"relevanceProviders\":[{\"date\":{\"start\":\"2026-11-20T09:30:00Z\",\"end\":\"2026-11-20T10:00:00Z\"}}]},{\"widgetKind\":\"CalendarWidget\",\"intent\":{\"intent\":\"ShowDayIntent\"},\"relevanceProviders\":[{\"location\":{\"region\":{\"latitude\":48.85,\"longitude\":2.35,\"radius\":200}}},{\"dailyRoutine\":\"morning\"}]}]"
                    )
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"shortcuts.relevantSet\"") && $0.contains("\"time\":\"2026-11-20T09:00:00Z\"")
                    && $0.contains("\"relevanceProviders\":[]")
            })
        #expect(
            lines.contains {
                $0.contains(
                    "\"api\":\"appIntents\",\"intent\":{\"intent\":\"CardIntent\",\"parameters\":{\"card\":\"Visa\",\"range\":\"week\"}}"
                )
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"app.foreground\"") && $0.contains("\"app\":\"com.example.cards\"")
                    && $0.contains("\"duration\":60")
            })
        #expect(
            lines.contains {
                $0.contains("\"type\":\"app.foreground\"") && $0.contains("\"app\":\"com.example.maps\"")
                    && !$0.contains("duration")
            })
        #expect(
            lines.contains {
                $0.contains("\"latitude\":48.85") && $0.contains("\"active\":false")
                    && $0.contains("\"time\":\"2026-11-20T09:00:00Z\"")
            })
        #expect(lines.contains { $0.contains("\"device\":\"backlight\"},\"active\":true,\"backlightState\":1") })
        #expect(lines.contains { $0.contains("\"device\":\"backlight\"},\"active\":false,\"backlightState\":17") })
        let intent = try #require(try ledger.storedEvents().first { $0.envelope.type == "intent.donated" })
        let source = try #require(intent.envelope.source)
        #expect(source.path?.hasPrefix("private/var/mobile/Library/Biome/streams/restricted/App.Intent/local/") == true)
        #expect(source.stream == "App.Intent")
        #expect(source.locatorJSON == "32")
        #expect(intent.envelope.id == "\(source.artifact!.prefix(16))/App.Intent/32")
    }

    @Test("importing a tree twice adds nothing")
    func idempotent() throws {
        let g = try GeneratedBiome()
        defer { g.scratch.cleanup() }
        let ledger = try g.scratch.ledger()
        let first = try importTree(g, ledger: ledger)
        let count = try ledger.lastStoredSeq()
        let second = try importTree(g, ledger: ledger)
        #expect(count == UInt64(first.map(\.imported).reduce(0, +)))
        #expect(second.map(\.imported).reduce(0, +) == 0)
        #expect(second.map(\.duplicates) == first.map(\.imported))
        #expect(try ledger.lastStoredSeq() == count)
    }

    @Test("a broken file in a tree is reported and imports nothing; the other files are imported")
    func brokenFileInTree() throws {
        let g = try GeneratedBiome()
        defer { g.scratch.cleanup() }
        let broken = try g.scratch.write(
            "\(g.streams)/restricted/App.InFocus/local/2",
            Array("SEGB".utf8) + [0xFF, 0xFF, 0, 0] + [UInt8](repeating: 0, count: 40))
        let reports = try importTree(g, ledger: try g.scratch.ledger())
        let bad = try #require(reports.first { $0.path.hasSuffix("App.InFocus/local/2") })
        #expect(bad.error?.contains("byte 4") == true)
        #expect(bad.imported == 0)
        #expect(reports.filter { $0.error == nil }.map(\.imported).reduce(0, +) == 11)
        _ = broken
    }

    @Test(
        "a v2 trailer listing one slot twice (written, then deleted) yields the slot once per entry without advancing")
    func duplicateTrailerEntry() throws {
        let s = try Scratch()
        defer { s.cleanup() }
        var w = SEGBWriter(version: 2, created: GeneratedBiome.morning)
        w.records = [
            .init(time: 1, payload: BiomePayloads.deviceState(1)),
            .init(time: 2, payload: BiomePayloads.deviceState(0)),
        ]
        var bytes = w.bytes(fileSize: 256)
        // Add a third trailer entry: record 0's end again, marked deleted, and a zeroed slot.
        let end0 = Array(bytes[bytes.count - 16..<bytes.count - 12])
        var extra = end0 + [3, 0, 0, 0] + withUnsafeBytes(of: Double(3).bitPattern.littleEndian, Array.init)
        extra = [UInt8](repeating: 0, count: 16) + extra
        bytes.replaceSubrange(bytes.count - 64..<bytes.count - 32, with: extra)
        bytes[4] = 4
        let f = try SEGBFile(bytes: bytes)
        #expect(f.records.count == 3)
        #expect(f.records[0].offset == f.records[1].offset)
        #expect(f.records.map(\.state) == [.written, .deleted, .written])
        #expect(f.ignoredEntries.count == 1)
    }
}

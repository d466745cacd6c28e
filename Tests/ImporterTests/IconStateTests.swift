import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// SpringBoard's `IconState.plist` (forensic-sources.md §10a). No public sample of a
/// widget-era file exists: these are written from SpringBoard's key names.
@Suite("IconState.plist")
struct IconStateTests {
    static let weather = IconStateWriter.Element(
        "F31E834E-D601-44B4-8665-010AB688D28A", kind: "com.apple.weather", app: "com.apple.weather",
        extensionBundle: "com.apple.weather.widget")
    static let photos = IconStateWriter.Element(
        "1D964A9C-A4F2-49F8-80E0-D2E4FE8EFD3D", kind: "com.apple.mobileslideshow.PhotosReliveWidget",
        app: "com.apple.mobileslideshow", extensionBundle: "com.apple.mobileslideshow.PhotosReliveWidget")
    static let clock = IconStateWriter.Element(
        "E181372D-47EA-450D-B9F5-6CE608D0676A", kind: "com.apple.mobiletimer.datetime", app: "com.apple.mobiletimer",
        extensionBundle: "com.apple.mobiletimer.WorldClockWidget")
    static let reminders = IconStateWriter.Element(
        "R-1", kind: "com.apple.reminders.widget", app: "com.apple.reminders",
        extensionBundle: "com.apple.reminders.WidgetExtension")

    /// Two stacks on two pages (one with suggestions off and a scrolled-to element), a
    /// single widget, a Siri Suggestions element, and a stack in the Today view.
    static func sample() -> [UInt8] {
        IconStateWriter.encode(
            pages: [
                [
                    .stack(
                        "STACK-1", gridSize: "medium",
                        [weather, photos, .other("siriSuggestions", id: "SIRI-1")]),
                    .widget(clock),
                ],
                [.stack("STACK-2", [reminders], smartRotate: false, suggestions: false, selected: "R-1")],
            ],
            today: [.stack("TODAY-1", [clock, weather], smartRotate: nil, suggestions: true)])
    }

    func read(_ bytes: [UInt8], layoutTime: Timestamp? = nil) throws -> (ArtifactImport, Scratch) {
        let scratch = try Scratch()
        let path = try scratch.write("private/var/mobile/Library/SpringBoard/IconState.plist", bytes)
        let result = IconStateImporter.read(
            path: path,
            context: ArtifactContext(sha256: "", path: "private/var/mobile/Library/SpringBoard/IconState.plist"),
            layoutTime: layoutTime)
        return (result, scratch)
    }

    @Test("every stack on every page and in the Today view, in order, with the switches written; single widgets apart")
    func layout() throws {
        let (result, scratch) = try read(Self.sample(), layoutTime: Timestamp(microseconds: 1_639_656_000_000_000))
        defer { scratch.cleanup() }
        #expect(result.report.error == nil)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1)
        guard case .layoutObserved(let layout) = event.body else {
            Issue.record("not a layout: \(event.body)")
            return
        }
        #expect(layout.method == "recorded" && layout.complete)
        #expect(layout.layout == "sha256:" + (result.report.artifact ?? "?"))
        #expect(layout.stacks.map(\.stack) == ["STACK-1", "STACK-2", "TODAY-1"])
        let first = layout.stacks[0]
        #expect(first.members.map(\.instance) == [Self.weather.uniqueIdentifier, Self.photos.uniqueIdentifier])
        #expect(first.members.map(\.app) == ["com.apple.weather", "com.apple.mobileslideshow"])
        #expect(first.members[0].extensionBundle == "com.apple.weather.widget")
        #expect(first.members[0].kind == "com.apple.weather" && first.family == "systemMedium")
        #expect(first.smartRotate == true && first.widgetSuggestions == true && first.selected == nil)
        #expect(layout.stacks[1].smartRotate == false && layout.stacks[1].widgetSuggestions == false)
        #expect(layout.stacks[1].selected == "R-1")
        #expect(layout.stacks[2].smartRotate == nil && layout.stacks[2].widgetSuggestions == true)
        #expect(layout.widgets?.map(\.instance) == [Self.clock.uniqueIdentifier])
        #expect(result.report.skipped == 1 && result.report.problems.contains { $0.contains("siriSuggestions") })
        #expect(event.envelope.time.microseconds == 1_639_656_000_000_000)
        #expect(event.envelope.source?.stream == "SpringBoard.IconState")
    }

    @Test("without --layout-time the layout's time is the file's modification time")
    func modificationTime() throws {
        let scratch = try Scratch()
        defer { scratch.cleanup() }
        let path = try scratch.write("IconState.plist", Self.sample())
        let mtime = Date(timeIntervalSince1970: 1_639_656_000.25)
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path)
        let result = IconStateImporter.read(
            path: path, context: ArtifactContext(sha256: "", path: "IconState.plist"), layoutTime: nil)
        #expect(result.events.first?.envelope.time.microseconds == 1_639_656_000_250_000)
    }

    @Test("Python's plistlib reads the written file the same way")
    func byPlistlib() throws {
        let script = """
            import plistlib, sys
            p = plistlib.load(open(sys.argv[1], "rb"))
            out = []
            for page in p["iconLists"]:
                for icon in page:
                    if isinstance(icon, dict) and "elements" in icon:
                        out.append(icon["displayIdentifier"] + ":" + ",".join(e["uniqueIdentifier"] for e in icon["elements"] if e["elementType"] == "widget"))
            print(";".join(out))
            """
        #expect(
            try IndependentReader.python(script, reading: Self.sample())
                == "STACK-1:\(Self.weather.uniqueIdentifier),\(Self.photos.uniqueIdentifier);STACK-2:R-1")
    }

    @Test("a plist that is not an icon state, is not a plist, or nests past the limit imports nothing and says why")
    func refused() throws {
        var nested: PlistNode = .array([])
        for _ in 0..<40 { nested = .array([nested]) }
        let cases: [([UInt8], String)] = [
            (BinaryPlistWriter.encode(.dict([("other", .string("x"))])), "not a SpringBoard icon state"),
            (BinaryPlistWriter.encode(.array([])), "its root is an array, not a dictionary"),
            (Array("<?xml version=\"1.0\"?>".utf8), "XML plist: expected a tag"),
            (Array("not a plist at all".utf8), "not a property list"),
            (BinaryPlistWriter.encode(.dict([("iconLists", .array([nested]))])), "nest more than"),
        ]
        for (bytes, message) in cases {
            let (result, scratch) = try read(bytes)
            defer { scratch.cleanup() }
            #expect(result.events.isEmpty)
            #expect(result.report.error?.contains(message) == true, "\(result.report.error ?? "no error")")
        }
    }

    @Test("a widget without its app or kind is named in the report and left out; the rest is imported")
    func incompleteElement() throws {
        var broken = Self.photos
        broken.app = ""
        let (result, scratch) = try read(IconStateWriter.encode(pages: [[.stack("S", [Self.weather, broken])]]))
        defer { scratch.cleanup() }
        guard case .layoutObserved(let layout)? = result.events.first?.body else {
            Issue.record("no layout")
            return
        }
        #expect(layout.stacks[0].members.map(\.instance) == [Self.weather.uniqueIdentifier])
        #expect(result.report.failed == 1)
        #expect(result.report.problems.contains { $0.contains("no containerBundleIdentifier") })
    }

    @Test("importing the same file twice adds nothing")
    func twice() throws {
        let scratch = try Scratch()
        defer { scratch.cleanup() }
        let path = try scratch.write("private/var/mobile/Library/SpringBoard/IconState.plist", Self.sample())
        var options = ImportRun.Options()
        options.root = scratch.path
        let ledger = try scratch.ledger()
        let run = ImportRun(format: .iconstate, options: options)
        #expect(try run.run(path: path, into: ledger).first?.imported == 1)
        let again = try run.run(path: scratch.path, into: ledger)
        #expect(again.count == 1 && again[0].imported == 0 && again[0].duplicates == 1)
    }
}

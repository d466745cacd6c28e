import Foundation
import Importers
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

/// The shape of a real iOS 14-16 `IconState.plist` (forensic-sources.md §10a), in both forms
/// a file takes: SpringBoard's binary plist and the XML one examiners' tools write.
@Suite("IconState.plist as real files are shaped")
struct IconStateShapeTests {
    static func card(_ n: Int) -> IconStateWriter.Element {
        IconStateWriter.Element(
            "CARD-\(n)", kind: "it.beem.widget.loyalty-card", app: "it.beem", extensionBundle: "it.beem.widget")
    }

    static let seven = (1...7).map { n in
        IconStateWriter.Element(
            "W-\(n)", kind: "com.example.kind\(n)", app: "com.example.app\(n)", extensionBundle: "com.example.ext\(n)")
    }

    static let clock = IconStateWriter.Element(
        "CLOCK-1", kind: "com.apple.mobiletimer.datetime", app: "com.apple.mobiletimer",
        extensionBundle: "com.apple.mobiletimer.WorldClockWidget")

    /// A stack of seven whose selection is the seventh; a stack of the same kind three
    /// times with both switches off and the second selected; a single widget with switches
    /// off of its own; `shortcuts` and `batteries` elements as single icons.
    static func tree() -> PlistNode {
        IconStateWriter.tree(
            pages: [
                [
                    .stack("STACK-7", gridSize: "medium", seven, smartRotate: true, suggestions: true, selected: "W-7"),
                    .widget(clock, smartRotate: false, suggestions: false, selected: "CLOCK-1"),
                ],
                [
                    .stack(
                        "STACK-3", gridSize: "medium", [card(1), card(2), card(3)], smartRotate: false,
                        suggestions: false, selected: "CARD-2"),
                    .widget(.other("shortcuts", id: "SHORTCUTS-1"), smartRotate: true, suggestions: true),
                    .widget(.other("batteries", id: "BATTERIES-1"), gridSize: "medium"),
                ],
            ])
    }

    static func read(_ bytes: [UInt8]) throws -> ArtifactImport {
        let scratch = try Scratch()
        defer { scratch.cleanup() }
        let relative = "private/var/mobile/Library/SpringBoard/IconState.plist"
        let path = try scratch.write(relative, bytes)
        return IconStateImporter.read(
            path: path, context: ArtifactContext(sha256: "", path: relative),
            layoutTime: Timestamp(microseconds: 1_639_656_000_000_000))
    }

    static func layout(_ result: ArtifactImport) throws -> LayoutObserved {
        let event = try #require(result.events.first)
        guard case .layoutObserved(let layout) = event.body else { throw Unexpected(body: "\(event.body)") }
        return layout
    }

    struct Unexpected: Error { var body: String }

    @Test(
        "both forms read alike: selections that are not the first member, switches off, one kind three times",
        arguments: [false, true])
    func bothForms(xml: Bool) throws {
        let bytes = xml ? XMLPlistWriter.encode(Self.tree()) : BinaryPlistWriter.encode(Self.tree())
        let result = try Self.read(bytes)
        #expect(result.report.error == nil, "\(result.report.error ?? "")")
        #expect(result.report.container == (xml ? "XML plist" : "binary plist"))
        let layout = try Self.layout(result)
        #expect(layout.complete)
        #expect(layout.stacks.map(\.stack) == ["STACK-7", "STACK-3"])
        let seven = layout.stacks[0]
        #expect(seven.members.count == 7 && seven.selected == "W-7")
        #expect(seven.smartRotate == true && seven.widgetSuggestions == true)
        let three = layout.stacks[1]
        #expect(three.members.map(\.instance) == ["CARD-1", "CARD-2", "CARD-3"])
        #expect(Set(three.members.map(\.kind)) == ["it.beem.widget.loyalty-card"])
        #expect(three.smartRotate == false && three.widgetSuggestions == false && three.selected == "CARD-2")
        // The single widget's own switches (off) stay its own: no stack takes them.
        #expect(layout.widgets?.map(\.instance) == ["CLOCK-1"])
        // shortcuts and batteries are single icons that are not widgets: counted, not imported.
        #expect(result.report.skipped == 2)
        #expect(result.report.problems.contains { $0.contains("shortcuts") })
        #expect(result.report.problems.contains { $0.contains("batteries") })
    }

    @Test("Python's plistlib writes the XML form of the binary file, and it reads the same")
    func plistlibXML() throws {
        let binary = BinaryPlistWriter.encode(Self.tree())
        let xml = try IndependentReader.python(
            """
            import plistlib, sys
            p = plistlib.load(open(sys.argv[1], "rb"))
            sys.stdout.write(plistlib.dumps(p, fmt=plistlib.FMT_XML).decode())
            """, reading: binary)
        #expect(xml.hasPrefix("<?xml"))
        let fromXML = try Self.layout(try Self.read(Array(xml.utf8)))
        let fromBinary = try Self.layout(try Self.read(binary))
        #expect(fromXML.stacks == fromBinary.stacks && fromXML.widgets == fromBinary.widgets)
    }

    @Test("a layout of the wrong shape is an error for the file, never a complete empty layout")
    func wrongShapes() throws {
        let valid = IconStateWriter.tree(pages: [[.stack("S", Self.seven)]])
        guard case .dict(let members) = valid else { throw Unexpected(body: "root") }
        func replacing(_ key: String, with node: PlistNode) -> PlistNode {
            .dict(members.map { $0.0 == key ? ($0.0, node) : $0 })
        }
        let cases: [(PlistNode, String)] = [
            (replacing("iconLists", with: .string("pages")), "its iconLists is a string, not an array"),
            (replacing("today", with: .dict([("x", .int(1))])), "its today is a dictionary, not an array"),
            (.array([valid]), "its root is an array, not a dictionary"),
            (
                replacing(
                    "iconLists",
                    with: .array([
                        .array([
                            .dict([
                                ("iconType", .string("custom")), ("displayIdentifier", .string("S")),
                                ("elements", .string("W-1")),
                            ])
                        ])
                    ])),
                "has elements that is a string, not an array"
            ),
            (
                replacing("iconLists", with: .array([.array([.int(1), .int(2)]), .array([.bool(true)])])),
                "not one readable icon"
            ),
        ]
        for (node, message) in cases {
            for bytes in [BinaryPlistWriter.encode(node), XMLPlistWriter.encode(node)] {
                let result = try Self.read(bytes)
                #expect(result.events.isEmpty)
                #expect(result.report.error?.contains(message) == true, "\(result.report.error ?? "no error")")
            }
        }
    }

    @Test("a page that cannot be read leaves the layout incomplete, with the page named")
    func unreadPage() throws {
        guard case .dict(let members) = IconStateWriter.tree(pages: [[.stack("S", Self.seven)]]) else {
            throw Unexpected(body: "root")
        }
        let node = PlistNode.dict(
            members.map {
                guard $0.0 == "iconLists", case .array(let pages) = $0.1 else { return $0 }
                return ($0.0, .array(pages + [.string("a page that is text")]))
            })
        let result = try Self.read(BinaryPlistWriter.encode(node))
        let layout = try Self.layout(result)
        #expect(!layout.complete)
        #expect(layout.stacks.map(\.stack) == ["S"])
        #expect(result.report.problems.contains { $0.contains("is a string, not a list of icons") })
    }
}

import Foundation
import StackLedgerTesting
import Testing

/// A real file's recorded selection (forensic-sources.md §10a), from an XML IconState.plist to
/// the answers: on top at the file's time, cited, and judged.
@Suite("Recorded selections end to end")
struct RecordedSelectionCLITests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static let cards = (1...3).map { n in
        IconStateWriter.Element(
            "CARD-\(n)", kind: "it.beem.widget.loyalty-card", app: "it.beem", extensionBundle: "it.beem.widget")
    }

    /// The stack explicit events built earlier (first member on top), then the layout file.
    func store(_ dir: WorkDirectory) throws -> String {
        let created =
            #"{"type":"stack.created","time":"2021-12-01T08:00:00Z","stack":"STACK-3","platform":"iOS","family":"systemMedium","smartRotate":false,"widgetSuggestions":false}"#
        let events =
            [created]
            + (1...3).map { n in
                #"{"type":"stack.widgetAdded","time":"2021-12-01T08:00:0\#(n)Z","stack":"STACK-3","widget":{"instance":"CARD-\#(n)","app":"it.beem","kind":"it.beem.widget.loyalty-card","family":"systemMedium","configuration":null}}"#
            }
        let lines = events.joined(separator: "\n")
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: lines + "\n").status == 0)
        let xml = IconStateWriter.encode(
            pages: [
                [
                    .stack(
                        "STACK-3", gridSize: "medium", Self.cards, smartRotate: false, suggestions: false,
                        selected: "CARD-2")
                ]
            ], xml: true)
        let path = try dir.write("IconState.plist", String(decoding: xml, as: UTF8.self))
        let r = CLI.call([
            "import", "iconstate", path, "--layout-time", "2021-12-16T12:00:00Z", "--store", dir.store,
        ])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("XML plist"), "\(r.stdout)")
        return path
    }

    @Test("on top at the layout's time with USER_SELECTED citing the layout; judged against the model without it")
    func selection() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        _ = try store(dir)
        let before = try json(
            CLI.call(["state", "--store", dir.store, "--at", "2021-12-16T11:00:00Z", "--json"]).stdout)
        let beforeTop = (before["stacks"] as? [[String: Any]])?.first?["top"] as? [String: Any]
        #expect(beforeTop?["instance"] as? String == "CARD-1")
        let why = try json(
            CLI.call([
                "why", "--store", dir.store, "--at", "2021-12-16T12:00:00Z", "--stack", "STACK-3", "--json",
            ]).stdout)
        #expect((why["top"] as? [String: Any])?["instance"] as? String == "CARD-2")
        let reasons = try #require((why["decision"] as? [String: Any])?["reasons"] as? [[String: Any]])
        #expect(reasons.first?["code"] as? String == "USER_SELECTED")
        #expect(reasons.first?["basis"] as? String == "documented" && reasons.first?["rule"] as? String == "G1")
        #expect(reasons.first?["events"] as? [Int] == [5])
        // Without the layout the model had the first card on top: the record disagrees.
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2021-12-16T00:00:00Z", "--to", "2021-12-17T00:00:00Z",
            "--disagreements",
        ])
        #expect(replay.stdout.contains("as the member the person selected in STACK-3"), "\(replay.stdout)")
        #expect(replay.stdout.contains("1 record names the widget shown: 0 agree with the model, 1 disagrees"))
    }
}

/// `stack.observed` as stores written before `scope` hold it.
@Suite("Records without a scope")
struct UnscopedRecordTests {
    @Test("a record with inStack true and no scope says only that the stack was on screen; without either, the top")
    func inStackWithoutScope() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = [
            #"{"type":"stack.widgetAdded","time":"2021-11-02T08:00:00Z","stack":"S","widget":{"instance":"a","app":"com.a","kind":"A","family":"systemSmall","configuration":null}}"#,
            #"{"type":"stack.widgetAdded","time":"2021-11-02T08:00:01Z","stack":"S","widget":{"instance":"b","app":"com.b","kind":"B","family":"systemSmall","configuration":null}}"#,
            #"{"type":"stack.observed","time":"2021-11-02T09:00:00Z","stack":"S","instance":"b","onScreen":true,"inStack":true}"#,
            #"{"type":"stack.observed","time":"2021-11-02T09:00:00Z","stack":"S","instance":"b","onScreen":true}"#,
        ]
        #expect(
            try CLI.run(["ingest", "--store", dir.store, "-"], stdin: lines.joined(separator: "\n") + "\n").status == 0)
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2021-11-02T00:00:00Z", "--to", "2021-11-03T00:00:00Z",
            "--disagreements",
        ])
        #expect(
            replay.stdout.contains("1 record names the widget shown: 0 agree with the model, 1 disagrees"),
            "\(replay.stdout)")
        #expect(replay.stdout.contains("1 record says only that the stack was on screen"))
        #expect(replay.stdout.contains("event 4:") && !replay.stdout.contains("event 3:"))
    }
}

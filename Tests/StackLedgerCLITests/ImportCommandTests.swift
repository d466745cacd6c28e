import Foundation
import StackLedgerTesting
import Testing

@Suite("import command")
struct ImportCommandTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// An extraction with one good App.InFocus file and one broken one.
    func extraction(_ dir: WorkDirectory) throws -> String {
        let root = dir.file("extraction")
        let streams = root + "/private/var/db/biome/streams/restricted"
        try FileManager.default.createDirectory(
            atPath: streams + "/App.InFocus/local", withIntermediateDirectories: true)
        var w = SEGBWriter(version: 2, created: 816_854_400)
        w.records = [
            .init(
                time: 816_854_410,
                payload: BiomePayloads.inFocus(app: "com.example.cards", start: 816_854_410, foreground: true)),
            .init(
                time: 816_854_470,
                payload: BiomePayloads.inFocus(app: "com.example.cards", start: 816_854_470, foreground: false)),
        ]
        try Data(w.bytes()).write(to: URL(fileURLWithPath: streams + "/App.InFocus/local/816854400000000"))
        try Data(Array("SEGB".utf8) + [8, 0, 0, 0]).write(
            to: URL(fileURLWithPath: streams + "/App.InFocus/local/816854500000000"))
        return root
    }

    @Test("a tree with a broken file: the good file is imported, the broken one named, exit 65")
    func brokenFile() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let root = try extraction(dir)
        let r = try CLI.run([
            "import", "segb", root + "/private/var/db/biome/streams", "--root", root, "--device", "phone", "--store",
            dir.store,
        ])
        #expect(r.status == 65)
        #expect(r.stderr.contains("private/var/db/biome/streams/restricted/App.InFocus/local/816854500000000:"))
        #expect(r.stderr.contains("it is truncated or not SEGB"))
        #expect(
            r.stdout.contains(
                "private/var/db/biome/streams/restricted/App.InFocus/local/816854400000000\tApp.InFocus\tSEGB v2\t2\t1\t0\t0\t0\t1\t0"
            ))
        let log = try CLI.run(["log", "--store", dir.store, "--json"])
        let event = try json(log.stdout.split(separator: "\n")[0].description)
        #expect(
            event["type"] as? String == "app.foreground" && event["device"] as? String == "phone"
                && event["duration"] as? Int == 60)
        let source = try #require(event["source"] as? [String: Any])
        #expect(
            source["path"] as? String == "private/var/db/biome/streams/restricted/App.InFocus/local/816854400000000")
        #expect(source["stream"] as? String == "App.InFocus" && source["locator"] as? Int == 32)
        #expect((source["artifact"] as? String)?.count == 64)
        // The text log names the provenance too.
        #expect(try CLI.run(["log", "--store", dir.store]).stdout.contains("stream=App.InFocus at=32"))
    }

    @Test("--json reports each file; importing again stores nothing and export keeps the provenance")
    func jsonAndIdempotence() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let db = Fixtures.path("data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL")
        let first = try json(try CLI.run(["import", "powerlog", db, "--store", dir.store, "--json"]).stdout)
        let file = try #require((first["files"] as? [[String: Any]])?.first)
        #expect(file["imported"] as? Int == 16 && file["recordsRead"] as? Int == 16 && file["error"] is NSNull)
        #expect(file["firstTime"] as? String == "2021-11-02T10:24:41.173087Z")
        let again = try json(try CLI.run(["import", "powerlog", db, "--store", dir.store, "--json"]).stdout)
        let second = try #require((again["files"] as? [[String: Any]])?.first)
        #expect(second["imported"] as? Int == 0 && second["duplicates"] as? Int == 16)
        let exported = try CLI.run(["export", "events", "--store", dir.store]).stdout
        #expect(exported.split(separator: "\n").count == 16)
        #expect(
            exported.contains("\"source\":{\"artifact\":\"")
                && exported.contains("\"stream\":\"PLApplicationAgent_EventBackward_WidgetStats\",\"locator\":109}"))
        // Export into a new store and out again: the same bytes.
        let copy = dir.file("copy")
        #expect(try CLI.run(["ingest", "--store", copy, "-"], stdin: exported).status == 0)
        #expect(try CLI.run(["export", "events", "--store", copy]).stdout == exported)
    }

    @Test("usage errors: an unknown format, a path outside --root, a missing file")
    func usage() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["import", "ufed", "x", "--store", dir.store]).status == 64)
        let outside = try CLI.run([
            "import", "segb", Fixtures.path("data/biome"), "--root", dir.path, "--store", dir.store,
        ])
        #expect(outside.status == 64 && outside.stderr.contains("--root"))
        let missing = try CLI.run(["import", "knowledgec", dir.file("nothing.db"), "--store", dir.store])
        #expect(missing.status == 74 && missing.stderr.contains("does not exist"))
    }

    @Test("why cites the imported ground truth with its provenance")
    func whyCitesSource() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let stack = """
            {"type":"stack.created","time":"2021-11-01T00:00:00Z","stack":"home-1","platform":"iOS","family":"systemMedium"}
            {"type":"stack.widgetAdded","time":"2021-11-01T00:00:01Z","stack":"home-1","widget":{"instance":"w-weather","app":"com.apple.weather.widget","kind":"eather","family":"systemMedium","configuration":null}}
            {"type":"stack.widgetAdded","time":"2021-11-01T00:00:02Z","stack":"home-1","widget":{"instance":"w-photos","app":"com.apple.mobileslideshow.PhotosReliveWidget","kind":"Widget","family":"systemMedium","configuration":null}}

            """
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: stack).status == 0)
        #expect(
            try CLI.run([
                "import", "powerlog", Fixtures.path("data/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"),
                "--store", dir.store,
            ]).status == 0)
        let r = try CLI.run([
            "why", "--store", dir.store, "--at", "2021-11-02T10:24:42Z", "--stack", "home-1", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try json(r.stdout)
        let observed = try #require(doc["observed"] as? [[String: Any]])
        // Widgets outside any stack (isInStack 0) are not compared; the two in-stack rows say
        // only that the stack was on screen, and the model holds both in it.
        #expect(observed.map { $0["event"] as? Int } == [6, 7])
        #expect(observed.allSatisfy { $0["agrees"] is NSNull && $0["scope"] as? String == "stack" })
        #expect(observed.map { $0["judgement"] as? String } == ["consistent", "consistent"])
        let cited = try #require(doc["cited"] as? [[String: Any]])
        let weather = try #require(cited.first { $0["seq"] as? Int == 6 })
        #expect((weather["source"] as? [String: Any])?["locator"] as? Int == 109)
    }
}

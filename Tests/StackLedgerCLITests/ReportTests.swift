import Foundation
import StackLedgerTesting
import Testing

@Suite("report")
struct ReportTests {
    /// A log whose app ids and kinds carry markup: it must render as text.
    static let hostile = """
        {"type":"stack.created","time":"2026-03-02T06:00:00Z","stack":"home-1","platform":"iOS","family":"systemSmall"}
        {"type":"stack.widgetAdded","time":"2026-03-02T06:00:01Z","stack":"home-1","widget":{"instance":"w1","app":"com.example.a","kind":"SafeWidget","family":"systemSmall","configuration":null}}
        {"type":"stack.widgetAdded","time":"2026-03-02T06:00:02Z","stack":"home-1","widget":{"instance":"w2","app":"</script><script>document.body.setAttribute('data-pwned','script')</script>","kind":"<img src=x onerror=\\"document.body.setAttribute('data-pwned','img')\\">","family":"systemSmall","configuration":null}}
        {"type":"widget.timeline","time":"2026-03-02T08:00:00Z","app":"</script><script>document.body.setAttribute('data-pwned','script')</script>","kind":"<img src=x onerror=\\"document.body.setAttribute('data-pwned','img')\\">","entries":[{"date":"2026-03-02T09:00:00Z","relevance":{"score":5,"duration":1800}}]}

        """

    @Test("injected markup in app ids and kinds is shown as text and never runs, in headless Chromium")
    func escaping() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: ReportTests.hostile).status == 0)
        let page = dir.file("r.html")
        let r = CLI.call([
            "report", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z", "--out",
            page,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("</script><script>document"))
        #expect(html.contains(#"\u003cimg src=x"#))

        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let browser = try #require(chromium, "run tools/setup: it installs chromium for this test")
        let p = Process()
        // A browser that hangs is killed after 60 s, and the test fails instead of waiting.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = [
            "--kill-after=5", "60", browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
            "file://" + page,
        ]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(
            p.terminationStatus == 0, "Chromium exited with \(p.terminationStatus) (124: it was stopped after 60 s)")
        #expect(dom.contains(#"data-rendered="yes""#), "the report's script did not finish")
        #expect(!dom.contains(#"data-pwned=""#), "an injected handler ran")
        #expect(!dom.contains("<img"))
        // The hostile kind is on the page, as text.
        #expect(dom.contains("&lt;img src=x onerror="))
        // Each span on top is labelled with its kind, and the legend names every kind.
        #expect(dom.contains(#"class="span-label">SafeWidget</text>"#), "no labelled span")
        #expect(dom.contains(#"<div class="legend" id="legend"><span>"#) && dom.contains("</i>SafeWidget</span>"))
    }

    @Test("lanes and relevance spans start and end at the exact instants the model changes, not at samples")
    func exactSpans() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let page = dir.file("r.html")
        #expect(
            CLI.call([
                "report", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z",
                "--out", page,
            ]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(html.range(of: #"id="report-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(
            try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any]
        )
        func ms(_ text: String) -> Double {
            Double(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1000)
        }
        let stacks = try #require(data["stacks"] as? [[String: Any]])
        let lanes = try #require(stacks.first?["lanes"] as? [[String: Any]])
        let spans = lanes.map { ($0["kind"] as? String ?? "", $0["start"] as? Double ?? 0, $0["end"] as? Double ?? 0) }
        #expect(spans.map(\.0) == ["WeatherWidget", "CardRecentPurchasesWidget"])
        #expect(spans.map(\.1) == [ms("2026-03-02T06:00:01Z"), ms("2026-03-02T09:41:00Z")])
        #expect(spans.last?.2 == ms("2026-03-03T00:00:00Z"))
        let relevance = try #require(data["relevance"] as? [[String: Any]])
        let cards = try #require(
            relevance.first { $0["kind"] as? String == "CardRecentPurchasesWidget" }?["spans"] as? [[Double]])
        #expect(
            cards.map { [$0[0], $0[1], $0[2]] } == [
                [ms("2026-03-02T09:41:00Z"), ms("2026-03-02T10:11:00Z"), 52.6],
                [ms("2026-03-02T12:15:00Z"), ms("2026-03-02T12:45:00Z"), 16.29],
                [ms("2026-03-02T15:05:00Z"), ms("2026-03-02T15:35:00Z"), 193.5],
                [ms("2026-03-02T18:52:00Z"), ms("2026-03-02T19:22:00Z"), 8.5],
            ])
    }

    @Test("tools/render-report renders the report to a PNG without console errors")
    func render() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/calendar-suggestion.ndjson")]).status
                == 0)
        let page = dir.file("r.html")
        #expect(
            CLI.call([
                "report", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z",
                "--out", page,
            ]).status == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Fixtures.repositoryRoot + "/tools/render-report")
        p.arguments = [page, dir.file("r.png")]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: dir.file("r.png")))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}

import Foundation
import StackLedgerTesting
import Testing

@Suite("why command")
struct WhyCommandTests {
    func ingested(_ scenario: String) throws -> WorkDirectory {
        let dir = WorkDirectory()
        #expect(
            CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/\(scenario).ndjson")]).status == 0)
        return dir
    }

    func json(_ r: CLI.Result) throws -> [String: Any] {
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func codes(_ doc: [String: Any]) -> [String] {
        ((doc["widget"] as? [String: Any])?["reasons"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }

    @Test("cards-day: the top at 09:45 rests on the 08:10 timeline; at 10:20 Cards is KEPT")
    func cards() throws {
        let dir = try ingested("cards-day")
        defer { dir.cleanup() }
        let doc = try json(
            CLI.call(["why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1", "--json"]))
        #expect((doc["top"] as? [String: Any])?["kind"] as? String == "CardRecentPurchasesWidget")
        let decision = try #require(doc["decision"] as? [String: Any])
        let reason = try #require((decision["reasons"] as? [[String: Any]])?.first)
        #expect(reason["code"] as? String == "RELEVANCE_SCORE" && reason["events"] as? [Int] == [6])
        #expect((doc["candidates"] as? [[String: Any]])?.count == 2)
        #expect(
            (doc["policy"] as? [String: Any])?["name"] as? String == "smartstack-1" && doc["verified"] as? Bool == true)
        let later = try json(
            CLI.call([
                "why", "--store", dir.store, "--at", "2026-03-02T10:20:00Z", "--stack", "home-1",
                "--widget", "CardRecentPurchasesWidget", "--json",
            ]))
        #expect(codes(later).contains("KEPT"))
        #expect((later["widget"] as? [String: Any])?["onTop"] as? Bool == true)
        let text = CLI.call(["why", "--store", dir.store, "--at", "2026-03-02T10:20:00Z", "--stack", "home-1"])
        #expect(
            text.stdout.contains("KEPT") && text.stdout.contains("Events cited:")
                && text.stdout.contains("not Apple's algorithm"))
    }

    @Test("what if: --without the timeline, --with a timeline file; nothing is stored")
    func whatIf() throws {
        let dir = try ingested("cards-day")
        defer { dir.cleanup() }
        let without = try json(
            CLI.call([
                "why", "--store", dir.store, "--at", "2026-03-02T09:45:00Z", "--stack", "home-1",
                "--widget", "CardRecentPurchasesWidget", "--without", "6", "--json",
            ]))
        #expect((without["top"] as? [String: Any])?["kind"] as? String == "WeatherWidget")
        #expect(codes(without).first == "NO_ACTIVE_RELEVANCE")
        let file = try dir.write(
            "t.ndjson",
            #"{"type":"widget.timeline","time":"2026-03-02T09:00:00Z","app":"com.example.weather","kind":"WeatherWidget","entries":[{"date":"2026-03-02T09:00:00Z","relevance":{"score":10,"duration":3600}}]}"#
                + "\n")
        let with = try json(
            CLI.call([
                "why", "--store", dir.store, "--at", "2026-03-02T09:20:00Z", "--stack", "home-1", "--with", file,
                "--json",
            ]))
        #expect((with["top"] as? [String: Any])?["kind"] as? String == "WeatherWidget")
        let before = CLI.call(["export", "events", "--store", dir.store]).stdout
        #expect(before.split(separator: "\n").count == 6)
        let bad = try dir.write("bad.ndjson", #"{"type":"widget.timeline","time":"nope"}"# + "\n")
        let r = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T09:20:00Z", "--stack", "home-1", "--with", bad,
        ])
        #expect(r.status == 65 && r.stderr.contains("bad.ndjson:1"))
    }

    @Test(
        "--with is checked as ingest checks; --without names stored events only, and a long list parses at once",
        .timeLimit(.minutes(2)))
    func whatIfInputIsChecked() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let stored =
            #"{"type":"widget.timeline","time":"2026-03-02T09:00:00Z","app":"com.example.weather","kind":"WeatherWidget","id":"t1","entries":[{"date":"2026-03-02T09:00:00Z","relevance":{"score":10,"duration":3600}}]}"#
        let text =
            try String(contentsOfFile: Fixtures.path("scenarios/cards-day.ndjson"), encoding: .utf8) + stored + "\n"
        #expect(CLI.call(["ingest", "--store", dir.store, try dir.write("in.ndjson", text)]).status == 0)
        let base = ["why", "--store", dir.store, "--at", "2026-03-02T09:20:00Z", "--stack", "home-1", "--json"]
        let other = stored.replacingOccurrences(of: #""score":10"#, with: #""score":11"#)
        let cases: [(String, String)] = [
            (stored.replacingOccurrences(of: #""type""#, with: #""device":"phone-2","type""#), "not default"),
            (
                stored.replacingOccurrences(of: #""t1""#, with: #""t2""#) + "\n"
                    + other.replacingOccurrences(of: #""t1""#, with: #""t2""#), "given at line 1 with other content"
            ),
            (other, "stored as sequence number 7 with other content"),
        ]
        for (lines, message) in cases {
            let r = CLI.call(base + ["--with", try dir.write("w.ndjson", lines + "\n")])
            #expect(r.status == 65 && r.stderr.contains(message), "\(r.stderr)")
        }
        // The same id and content as a stored event is that event: not counted twice.
        let same = try json(CLI.call(base + ["--with", try dir.write("same.ndjson", stored + "\n")]))
        let plain = try json(CLI.call(base))
        #expect(
            (same["decision"] as? [String: Any])?["reasons"] as? NSArray == (plain["decision"] as? [String: Any])?[
                "reasons"] as? NSArray)
        // Read through a pipe, and from /dev/null.
        #expect(
            try CLI.run(
                executable: "/bin/bash",
                [
                    "-c",
                    "'\(CLI.executable)' why --store '\(dir.store)' --at 2026-03-02T09:20:00Z --stack home-1 --with <(cat '\(dir.file("same.ndjson"))')",
                ]
            ).status == 0)
        #expect(CLI.call(base + ["--with", "/dev/null"]).status == 0)
        // --without: stored sequence numbers only; a long list is parsed at once.
        #expect(CLI.call(base + ["--without", "0"]).status == 64)
        let missing = CLI.call(base + ["--without", "999"])
        #expect(missing.status == 64 && missing.stderr.contains("no event with that sequence number"))
        let long = try CLI.run(base + ["--without"] + (0..<40_000).map { _ in "7" } + ["6"], timeout: 60)
        #expect(long.status == 0, "\(long.stderr)")
        #expect(CLI.call(base + ["--without", "6,7"]).status == 0)
    }

    @Test(
        "the scenarios' stated reasons: RELEVANT_SHORTCUT_INVALIDATED, PLATFORM_IGNORES_SIGNAL, PERMISSION_MISSING, UNKNOWN_WIDGET"
    )
    func scenarioReasons() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var calendar = try String(
            contentsOfFile: Fixtures.path("scenarios/calendar-suggestion.ndjson"), encoding: .utf8)
        calendar +=
            #"{"type":"shortcuts.relevantSet","time":"2026-03-02T09:00:00Z","app":"com.example.calendar","shortcuts":[]}"#
            + "\n"
        let cal = dir.path + "/cal"
        #expect(try CLI.run(["ingest", "--store", cal, "-"], stdin: calendar).status == 0)
        let c = try json(
            CLI.call([
                "why", "--store", cal, "--at", "2026-03-02T09:35:00Z", "--stack", "home-1", "--widget",
                "CalendarWidget", "--json",
            ]))
        #expect(codes(c).contains("RELEVANT_SHORTCUT_INVALIDATED"))

        let watch = try String(contentsOfFile: Fixtures.path("scenarios/watch-workout.ndjson"), encoding: .utf8)
        let ios = dir.path + "/ios"
        let iosText = watch.replacingOccurrences(of: "watchOS", with: "iOS").replacingOccurrences(
            of: "accessoryRectangular", with: "systemSmall")
        #expect(try CLI.run(["ingest", "--store", ios, "-"], stdin: iosText).status == 0)
        let i = try json(
            CLI.call([
                "why", "--store", ios, "--at", "2026-03-02T18:10:00Z", "--stack", "watch", "--widget", "PaceWidget",
                "--json",
            ]))
        #expect(codes(i).first == "PLATFORM_IGNORES_SIGNAL")

        let w = dir.path + "/watch"
        #expect(CLI.call(["ingest", "--store", w, Fixtures.path("scenarios/watch-workout.ndjson")]).status == 0)
        let p = try json(
            CLI.call([
                "why", "--store", w, "--at", "2026-03-02T18:10:00Z", "--stack", "watch", "--widget", "PaceWidget",
                "--without", "4", "--json",
            ]))
        #expect(codes(p).first == "PERMISSION_MISSING")
        let u = try json(
            CLI.call([
                "why", "--store", w, "--at", "2026-03-02T18:10:00Z", "--stack", "watch", "--widget", "NoSuchWidget",
                "--json",
            ]))
        #expect(codes(u) == ["UNKNOWN_WIDGET"])
        let missing = CLI.call(["why", "--store", w, "--at", "2026-03-02T18:10:00Z", "--stack", "nope"])
        #expect(missing.status == 64)
    }
}

@Suite("ground truth")
struct GroundTruthTests {
    @Test("why shows whether the device's own record agrees; replay --disagreements lists the ones that do not")
    func observed() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var log = try String(contentsOfFile: Fixtures.path("scenarios/cards-day.ndjson"), encoding: .utf8)
        log +=
            #"{"type":"stack.observed","time":"2026-03-02T09:50:00Z","stack":"home-1","instance":"w-cards","onScreen":true}"#
            + "\n"
        log +=
            #"{"type":"stack.observed","time":"2026-03-02T09:55:00Z","stack":"home-1","app":"com.example.weather","kind":"WeatherWidget","onScreen":true}"#
            + "\n"
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: log).status == 0)
        let r = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T10:00:00Z", "--stack", "home-1", "--json",
        ])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let observed = try #require(doc["observed"] as? [[String: Any]])
        #expect(observed.map { $0["event"] as? Int } == [7, 8])
        #expect(observed.map { $0["agrees"] as? Bool } == [true, false])
        let replay = CLI.call([
            "replay", "--store", dir.store, "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-02T23:59:59Z",
            "--disagreements", "--json",
        ])
        #expect(replay.status == 0)
        let lines = replay.stdout.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(#""event":8"#) && lines[0].contains("WeatherWidget"))
    }

    @Test("an observation with a duration is compared over the seconds up to its time, exactly, not at its instant")
    func observedOverDuration() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var log = try String(contentsOfFile: Fixtures.path("scenarios/cards-day.ndjson"), encoding: .utf8)
        // Cards is on top from 09:41:00. 09:30-09:50: 540 of 1200 s; 09:40-10:00: 1140 of 1200 s.
        log +=
            #"{"type":"stack.observed","time":"2026-03-02T09:50:00Z","stack":"home-1","instance":"w-cards","onScreen":true,"duration":1200}"#
            + "\n"
        log +=
            #"{"type":"stack.observed","time":"2026-03-02T10:00:00Z","stack":"home-1","instance":"w-cards","onScreen":true,"duration":1200}"#
            + "\n"
        // Weather is on top until 09:41:00: 1560 of the 1800 s up to 09:45, though not at 09:45 itself.
        log +=
            #"{"type":"stack.observed","time":"2026-03-02T09:45:00Z","stack":"home-1","app":"com.example.weather","kind":"WeatherWidget","onScreen":true,"duration":1800}"#
            + "\n"
        #expect(try CLI.run(["ingest", "--store", dir.store, "-"], stdin: log).status == 0)
        let r = CLI.call([
            "why", "--store", dir.store, "--at", "2026-03-02T10:00:00Z", "--stack", "home-1", "--json",
        ])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let observed = try #require(doc["observed"] as? [[String: Any]])
        #expect(observed.map { $0["event"] as? Int } == [9, 7, 8])
        #expect(observed.map { $0["agrees"] as? Bool } == [true, false, true])
        let details = observed.compactMap { $0["detail"] as? String }
        #expect(
            details.count == 3 && details[0].contains("1560 s of them (87 %)")
                && details[1].contains("540 s of them (45 %)"))
    }
}

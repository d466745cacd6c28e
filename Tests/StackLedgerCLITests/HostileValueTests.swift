import Foundation
import StackLedgerTesting
import Testing

/// Values that a valid-looking event, option or policy file can carry and that the engine
/// cannot represent: each is refused before anything is stored or answered, naming the field.
@Suite("Hostile values", .timeLimit(.minutes(2)))
struct HostileValueTests {
    static let stack = [
        #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"s1","platform":"iOS","family":"systemSmall"}"#,
        #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s1","widget":{"instance":"w1","app":"a","kind":"K","family":"systemSmall","configuration":null}}"#,
    ]

    static func timeline(_ relevance: String, date: String = "2026-05-04T08:00:00Z") -> String {
        #"{"type":"widget.timeline","time":"2026-05-04T07:00:00Z","app":"a","kind":"K","entries":[{"date":"\#(date)","relevance":\#(relevance)}]}"#
    }

    /// Ingests the base stack, then `line`: the second run must be refused whole (65) with
    /// `field` named, and the store must answer as before.
    func refused(_ line: String, field: String, message: String) throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call([
                "ingest", "--store", dir.store, try dir.write("base.ndjson", Self.stack.joined(separator: "\n") + "\n"),
            ]).status == 0)
        let before = CLI.call(["export", "events", "--store", dir.store]).stdout
        let bad = try dir.write(
            "bad.ndjson", Self.stack[0].replacingOccurrences(of: "05:00:00Z", with: "05:30:00Z") + "\n" + line + "\n")
        let r = CLI.call(["ingest", "--store", dir.store, bad])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(
            r.stderr.contains("bad.ndjson:2") && r.stderr.contains(field) && r.stderr.contains(message), "\(r.stderr)")
        #expect(CLI.call(["export", "events", "--store", dir.store]).stdout == before)
        let state = CLI.call(["state", "--store", dir.store, "--at", "2026-05-05T00:00:00Z", "--json"])
        #expect(state.status == 0, "\(state.stderr)")
    }

    @Test("a relevance duration of 1e19 s, or 9e12 s, is refused and names the limit")
    func hugeDurations() throws {
        try refused(Self.timeline(#"{"score":500,"duration":1e19}"#), field: "duration", message: "at most 315576000 s")
        try refused(
            Self.timeline(#"{"score":500,"duration":9000000000000}"#), field: "duration", message: "at most 315576000 s"
        )
        try refused(
            Self.timeline(#"{"score":500,"duration":260000000000}"#), field: "duration", message: "at most 315576000 s")
    }

    @Test("an entry whose date plus duration passes 2200 is refused")
    func windowPast2200() throws {
        try refused(
            Self.timeline(#"{"score":5,"duration":315576000}"#, date: "2199-06-01T00:00:00Z"), field: "relevance",
            message: "after 2200")
    }

    @Test("an observation whose time minus its duration is before 1970 is refused; 1e308 s is refused")
    func observationBefore1970() throws {
        try refused(
            #"{"type":"stack.observed","time":"1970-01-01T00:01:00Z","instance":"w1","onScreen":true,"duration":3600}"#,
            field: "duration", message: "before 1970")
        try refused(
            #"{"type":"stack.observed","time":"2026-05-04T09:00:00Z","instance":"w1","onScreen":true,"duration":1e308}"#,
            field: "duration", message: "at most 315576000 s")
        try refused(
            #"{"type":"app.foreground","time":"2026-05-04T09:00:00Z","app":"a","duration":1e15}"#, field: "duration",
            message: "at most")
    }

    @Test("the longest valid window is answered with times it can write")
    func longestWindowAnswers() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = Self.stack + [Self.timeline(#"{"score":5,"duration":315576000}"#)]
        #expect(
            CLI.call([
                "ingest", "--store", dir.store, try dir.write("in.ndjson", lines.joined(separator: "\n") + "\n"),
            ]).status == 0)
        for at in ["2026-05-04T09:00:00Z", "2030-01-01T00:00:00Z", "2199-12-31T23:59:59Z"] {
            let r = CLI.call(["state", "--store", dir.store, "--at", at, "--json"])
            #expect(r.status == 0, "\(r.stderr)")
            // Every time in the answer is one RFC 3339 can write: the window ends 2036-05-03T20:00:00Z.
            let untils = r.stdout.components(separatedBy: #""until":""#).dropFirst().map { String($0.prefix(20)) }
            #expect(untils.allSatisfy { $0 == "2036-05-03T20:00:00Z" }, "\(untils)")
            if at.hasPrefix("2026") { #expect(untils.count == 1) }
        }
        #expect(CLI.call(["rebuild", "--store", dir.store]).status == 0)
        #expect(
            CLI.call([
                "replay", "--store", dir.store, "--from", "2026-05-04T00:00:00Z", "--to", "2036-06-01T00:00:00Z",
            ]).status == 0)
    }

    @Test("--every past ten years, or one that overflows, is a usage error naming its range")
    func everyOutOfRange() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(
            CLI.call([
                "ingest", "--store", dir.store, try dir.write("in.ndjson", Self.stack.joined(separator: "\n") + "\n"),
            ]).status == 0)
        for every in ["9223372036855s", "3653d", "99999999999999999999m"] {
            let r = CLI.call([
                "export", "projection", "--store", dir.store, "--from", "2026-05-04T00:00:00Z", "--to",
                "2026-05-05T00:00:00Z",
                "--every", every, "--format", "csv",
            ])
            #expect(r.status == 64, "\(every): \(r.stderr)")
            #expect(r.stderr.contains("--every"))
        }
        let ok = CLI.call([
            "export", "projection", "--store", dir.store, "--from", "2026-05-04T00:00:00Z", "--to",
            "2026-05-05T00:00:00Z",
            "--every", "3652d", "--format", "csv",
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.call(["ingest", "--store", dir.store, "--batch-size", "0"]).status == 64)
        #expect(CLI.call(["rebuild", "--store", dir.store, "--threads", "100000"]).status == 64)
    }

    @Test("a policy parameter out of its range exits 65 naming the parameter and its range")
    func policyOutOfRange() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let cases: [(String, String)] = [
            (#"{"normalizationWindowDays":1e15}"#, #""normalizationWindowDays" must be a whole number from 1 to 3660"#),
            (
                #"{"usagePatternWindowDays":100000000000}"#,
                #""usagePatternWindowDays" must be a whole number from 1 to 3660"#
            ),
            (#"{"scrollHoldMinutes":1e300}"#, #""scrollHoldMinutes" must be a whole number from 0 to 527040"#),
            (#"{"scrollHoldMinutes":1.5}"#, #""scrollHoldMinutes" must be a whole number"#),
            (#"{"contextRank":true}"#, #""contextRank" must be a number from 0 to 10"#),
            (
                #"{"maxWidgetsPerStack":null}"#,
                #""maxWidgetsPerStack" must be a whole number from 1 to 1000 (it is null)"#
            ),
        ]
        for (text, message) in cases {
            let r = CLI.call(["policy", "--policy", try dir.write("p.json", text)])
            #expect(r.status == 65, "\(text): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(text): \(r.stderr)")
        }
        #expect(
            CLI.call([
                "policy", "--policy",
                try dir.write("p.json", #"{"rotationCapPerWidgetPerDay":null,"contextRank":0.5}"#),
            ]).status == 0)
        #expect(CLI.call(["policy", "--policy", dir.file("missing.json")]).status == 74)
    }
}

@Suite("Forged text", .timeLimit(.minutes(2)))
struct ForgedTextTests {
    static let forged = #"com.x\n99\t2026-05-04T09:00:00Z\tFORGED\u001b[31m"#

    @Test("a stored string with a newline, tabs and an escape sequence prints escaped in every text answer")
    func storedStringsAreEscaped() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = [
            #"{"type":"stack.created","time":"2026-05-04T05:00:00Z","stack":"s\u001b[2J1","platform":"iOS","family":"systemSmall"}"#,
            #"{"type":"stack.widgetAdded","time":"2026-05-04T05:00:00Z","stack":"s\u001b[2J1","widget":{"instance":"w\n1","app":"\#(Self.forged)","kind":"K\tX","family":"systemSmall","configuration":null}}"#,
            #"{"type":"widget.timeline","time":"2026-05-04T07:00:00Z","app":"\#(Self.forged)","kind":"K\tX","entries":[{"date":"2026-05-04T08:00:00Z","relevance":{"score":5,"duration":600}}]}"#,
        ]
        let input = try dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        #expect(CLI.call(["ingest", "--store", dir.store, input]).status == 0)
        let answers = [
            CLI.call(["log", "--store", dir.store]),
            CLI.call(["state", "--store", dir.store, "--at", "2026-05-04T08:05:00Z"]),
            CLI.call([
                "why", "--store", dir.store, "--at", "2026-05-04T08:05:00Z", "--stack", "s\u{1B}[2J1", "--widget",
                "K\tX",
            ]),
            CLI.call([
                "replay", "--store", dir.store, "--from", "2026-05-04T00:00:00Z", "--to", "2026-05-05T00:00:00Z",
            ]),
            CLI.call(["stats", "--store", dir.store]),
        ]
        for r in answers {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stdout.contains("\u{1B}") && !r.stderr.contains("\u{1B}"), "\(r.stdout)")
            #expect(
                !r.stdout.split(separator: "\n").contains {
                    $0.hasPrefix("99\t") || $0.hasPrefix("1\t") && $0.contains("FORGED") && !$0.contains("\\n")
                })
        }
        let log = answers[0].stdout.split(separator: "\n")
        #expect(log.count == 3)
        #expect(log[1].contains(#"com.x\n99\t2026-05-04T09:00:00Z\tFORGED\u001b[31m"#))
        #expect(
            log.allSatisfy {
                $0.split(separator: "\t", omittingEmptySubsequences: false).count
                    == log[0].split(separator: "\t", omittingEmptySubsequences: false).count
            })
        #expect(answers[1].stdout.contains(#"w\n1  K\tX"#))
        // An error that quotes a stored name keeps to one line.
        let err = CLI.call(["state", "--store", dir.store, "--at", "2026-05-04T08:05:00Z", "--device", "x\ny"])
        #expect(err.status == 64 && err.stderr.split(separator: "\n").count == 1 && err.stderr.contains(#"x\ny"#))
    }
}

@Suite("Small contract edges", .timeLimit(.minutes(2)))
struct ContractEdgeTests {
    @Test("a leading byte order mark is ignored; -00:00 is written as Z; a leap second is refused")
    func textEdges() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let bom = try dir.write(
            "bom.ndjson", "\u{FEFF}" + #"{"type":"app.foreground","time":"2026-05-04T09:00:00-00:00","app":"a"}"# + "\n"
        )
        let r = CLI.call(["ingest", "--store", dir.store, bom])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            CLI.call(["export", "events", "--store", dir.store]).stdout
                == #"{"type":"app.foreground","time":"2026-05-04T09:00:00Z","app":"a"}"# + "\n")
        let leap = try CLI.run(
            ["ingest", "--store", dir.store, "-"],
            stdin: #"{"type":"app.foreground","time":"2016-12-31T23:59:60Z","app":"a"}"# + "\n")
        #expect(leap.status == 65 && leap.stderr.contains("-:1"), "\(leap.stderr)")
    }

    @Test("a source that is not the importers' shape is refused, naming the member")
    func sourceShape() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let hex = String(repeating: "ab", count: 32)
        let cases: [(String, String)] = [
            (#"{}"#, "artifact"),
            (#"{"artifact":"xyz","path":"p","stream":"s","locator":1}"#, "64 lowercase hex digits"),
            (#"{"artifact":"\#(hex)","stream":"s","locator":1}"#, "path"),
            (#"{"artifact":"\#(hex)","path":"p","locator":1}"#, "stream"),
            (#"{"artifact":"\#(hex)","path":"p","stream":"s"}"#, "locator"),
        ]
        for (source, field) in cases {
            let r = try CLI.run(
                ["ingest", "--store", dir.store, "-"],
                stdin: #"{"type":"app.foreground","time":"2026-05-04T09:00:00Z","app":"a","source":\#(source)}"# + "\n")
            #expect(r.status == 65 && r.stderr.contains(field), "\(source): \(r.stderr)")
        }
        let ok = try CLI.run(
            ["ingest", "--store", dir.store, "-"],
            stdin:
                #"{"type":"app.foreground","time":"2026-05-04T09:00:00Z","app":"a","source":{"artifact":"\#(hex)","path":"p","stream":"s","locator":"7"}}"#
                + "\n")
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("one rule for exit codes: what the store does not hold, or an interval backwards, is a usage error")
    func exitCodes() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let s = ["--store", dir.store]
        #expect(
            CLI.call(["log"] + s + ["--from", "2026-03-03T00:00:00Z", "--to", "2026-03-02T00:00:00Z"]).status == 64)
        #expect(
            CLI.call(["replay"] + s + ["--from", "2026-03-03T00:00:00Z", "--to", "2026-03-02T00:00:00Z"]).status
                == 64)
        #expect(CLI.call(["log"] + s + ["--device", "nosuch"]).status == 64)
        #expect(CLI.call(["state"] + s + ["--at", "2026-03-02T10:00:00Z", "--device", "nosuch"]).status == 64)
        #expect(
            CLI.call(
                ["replay"] + s + [
                    "--from", "2026-03-02T00:00:00Z", "--to", "2026-03-03T00:00:00Z", "--stack", "nosuch",
                ]
            ).status == 64)
        #expect(CLI.call(["state"] + s + ["--at", "2026-03-02T10:00:00Z", "--stack", "nosuch"]).status == 64)
        // Filters that match nothing answer with nothing.
        #expect(CLI.call(["log"] + s + ["--type", "stack.scrolled"]).status == 0)
        #expect(
            CLI.call(
                ["replay"] + s + [
                    "--from", "2026-03-02T06:00:02Z", "--to", "2026-03-02T06:00:03Z", "--stack", "home-1",
                ]
            ).status == 0)
    }
}

@Suite("What an answer says it checked")
struct CheckScopeTests {
    @Test("state and why name the quick check and the sequence numbers it covered")
    func checkScope() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(3000))
        #expect(CLI.call(["ingest", "--store", dir.store, "--batch-size", "500", input]).status == 0)
        let state = CLI.call([
            "state", "--store", dir.store, "--device", "device-0", "--at", "2026-03-02T12:00:00Z", "--json",
        ])
        #expect(
            state.stdout.contains(#""verified":true,"check":{"kind":"quick","fromSeq":2001,"toSeq":3000}"#),
            "\(state.stdout.prefix(300))")
    }
}

@Suite("A recorded chain head")
struct ExpectedHeadTests {
    func head(_ verify: CLI.Result) -> String? {
        verify.stdout.split(separator: "\n").first { $0.hasPrefix("chain head: ") }.map {
            String($0.dropFirst("chain head: ".count))
        }
    }

    @Test("a store rolled back to an older copy passes verify, and fails it with --expect-head; queries refuse it (74)")
    func rollback() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        #expect(CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/cards-day.ndjson")]).status == 0)
        let old = dir.file("old")
        try FileManager.default.copyItem(atPath: dir.store, toPath: old)
        #expect(
            CLI.call(["ingest", "--store", dir.store, Fixtures.path("scenarios/calendar-suggestion.ndjson")]).status
                == 0)
        let recorded = try #require(head(CLI.call(["verify", "--store", dir.store])))
        #expect(CLI.call(["verify", "--store", dir.store, "--expect-head", recorded]).status == 0)
        // The newer store holds the older head too: it is a prefix of its chain.
        let older = try #require(head(CLI.call(["verify", "--store", old])))
        #expect(CLI.call(["verify", "--store", dir.store, "--expect-head", older]).status == 0)
        // Rolled back: the older copy put in place of the newer one.
        try FileManager.default.removeItem(atPath: dir.store + "/data.mdb")
        try FileManager.default.copyItem(atPath: old + "/data.mdb", toPath: dir.store + "/data.mdb")
        #expect(CLI.call(["verify", "--store", dir.store]).status == 0)
        let caught = CLI.call(["verify", "--store", dir.store, "--expect-head", recorded])
        #expect(caught.status == 1 && caught.stdout.contains("no batch ending at"), "\(caught.stdout)")
        let query = CLI.call([
            "state", "--store", dir.store, "--at", "2026-03-02T10:00:00Z", "--expect-head", recorded,
        ])
        #expect(query.status == 74 && query.stderr.contains("--expect-head"), "\(query.stderr)")
        let wrongHash = older.replacingOccurrences(of: "sha256:", with: "sha256:0")
        #expect(
            CLI.call(["verify", "--store", dir.store, "--expect-head", String(wrongHash.dropLast())]).status == 1)
        #expect(CLI.call(["verify", "--store", dir.store, "--expect-head", "garbage"]).status == 64)
    }
}

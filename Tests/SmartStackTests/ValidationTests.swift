import RecordFormat
import SmartStack
import Testing

/// Every validity rule of the event contract, with the field and message it reports.
@Suite("Event validation")
struct ValidationTests {
    func error(_ line: String) -> FieldError? {
        var decoder = EventDecoder()
        do {
            _ = try decoder.decode(line)
            return nil
        } catch {
            return error
        }
    }

    @Test("a valid line of every example in the contract decodes")
    func examplesDecode() throws {
        let lines = [
            #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","stack":"home-1","platform":"iOS","family":"systemSmall"}"#,
            #"{"type":"stack.widgetAdded","time":"2026-11-20T07:00:01Z","stack":"home-1","widget":{"instance":"w-weather","app":"com.example.weather","kind":"WeatherWidget","family":"systemSmall","configuration":null}}"#,
            #"{"type":"widget.timeline","time":"2026-11-20T08:00:00Z","app":"com.example.cards","kind":"CardRecentPurchasesWidget","entries":[{"date":"2026-11-20T08:15:00Z","relevance":{"score":0}},{"date":"2026-11-20T09:41:00Z","relevance":{"score":52.6,"duration":1800}}],"policy":"atEnd"}"#,
            #"{"type":"shortcuts.relevantSet","time":"2026-11-20T08:00:00Z","app":"com.example.calendar","shortcuts":[{"widgetKind":"CalendarWidget","role":"information","intent":null,"relevanceProviders":[{"date":{"start":"2026-11-20T09:30:00Z","end":"2026-11-20T10:00:00Z"}}]}]}"#,
        ]
        for line in lines { #expect(error(line) == nil) }
    }

    @Test(
        "rejects, naming the field and the problem",
        arguments: [
            ("not json", "", "not JSON"),
            ("[1,2]", "", "not an object"),
            (#"{"time":"2026-11-20T07:00:00Z"}"#, "type", "required"),
            (#"{"type":"stack.created"}"#, "time", "required"),
            (#"{"type":"stack.exploded","time":"2026-11-20T07:00:00Z"}"#, "type", "not an event type"),
            (
                #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","platform":"iOS","family":"s"}"#, "stack",
                "required"
            ),
            (
                #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","stack":7,"platform":"iOS","family":"s"}"#,
                "stack", "must be a string"
            ),
            (
                #"{"type":"stack.created","time":"2026-11-20","stack":"s","platform":"iOS","family":"s"}"#, "time",
                "cut short"
            ),
            (
                #"{"type":"stack.created","time":"1969-01-01T00:00:00Z","stack":"s","platform":"iOS","family":"s"}"#,
                "time", "outside 1970-2200"
            ),
            (
                #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","stack":"s","platform":"Android","family":"s"}"#,
                "platform", "is not one of"
            ),
            (
                #"{"type":"widget.timeline","time":"2026-11-20T07:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-11-20T07:00:00Z","relevance":{"score":"high"}}]}"#,
                "entries[0].relevance.score", "must be a number"
            ),
            (
                #"{"type":"widget.timeline","time":"2026-11-20T07:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-11-20T07:00:00Z","relevance":{"score":1e999}}]}"#,
                "entries[0].relevance.score", "finite"
            ),
            (
                #"{"type":"widget.timeline","time":"2026-11-20T07:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-11-20T07:00:00Z","relevance":{"score":1,"duration":-5}}]}"#,
                "entries[0].relevance.duration", "negative"
            ),
            (
                #"{"type":"widget.timeline","time":"2026-11-20T07:00:00Z","kind":"k","entries":[]}"#, "app",
                "required for widget.timeline"
            ),
            (
                #"{"type":"context.changed","time":"2026-11-20T07:00:00Z","context":{},"active":true}"#, "context",
                "exactly one key"
            ),
            (
                #"{"type":"context.changed","time":"2026-11-20T07:00:00Z","context":{"sleep":"bedtime","fitness":"workoutActive"},"active":true}"#,
                "context", "exactly one key"
            ),
            (
                #"{"type":"shortcuts.relevantSet","time":"2026-11-20T07:00:00Z","app":"a","shortcuts":[{"widgetKind":"k","intent":null,"relevanceProviders":[{}]}]}"#,
                "shortcuts[0].relevanceProviders[0]", "exactly one key"
            ),
            (
                #"{"type":"intent.donationsDeleted","time":"2026-11-20T07:00:00Z","app":"a","intent":"X","all":true}"#,
                "", "exactly one key"
            ),
            (#"{"type":"intent.donationsDeleted","time":"2026-11-20T07:00:00Z","app":"a"}"#, "", "exactly one key"),
            (
                #"{"type":"system.developerMode","time":"2026-11-20T07:00:00Z","enabled":"yes"}"#, "enabled",
                "true or false"
            ),
            (
                #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","stack":"s","stack":"t","platform":"iOS","family":"s"}"#,
                "stack", "twice"
            ),
            (
                #"{"type":"widget.viewed","time":"2026-11-20T07:00:00Z","duration":3}"#, "instance",
                "by instance, or by app and kind"
            ),
        ] as [(String, String, String)])
    func rejects(line: String, field: String, message: String) throws {
        let e = try #require(error(line))
        #expect(e.field == field)
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test("the column points at the offending value")
    func column() throws {
        let line =
            #"{"type":"stack.created","time":"2026-11-20T07:00:00Z","stack":"s","platform":"Android","family":"s"}"#
        let e = try #require(error(line))
        let index = line.utf8.index(line.utf8.startIndex, offsetBy: e.offset)
        #expect(line[index...].hasPrefix("\"Android\""))
    }

    @Test("limits: a timeline of 10,000 entries passes, 10,001 fails naming the limit")
    func timelineLimit() throws {
        func timeline(_ n: Int) -> String {
            let entry = #"{"date":"2026-11-20T07:00:00Z","relevance":null}"#
            return #"{"type":"widget.timeline","time":"2026-11-20T07:00:00Z","app":"a","kind":"k","entries":["#
                + Array(repeating: entry, count: n).joined(separator: ",") + "]}"
        }
        #expect(error(timeline(10_000)) == nil)
        let e = try #require(error(timeline(10_001)))
        #expect(e.field == "entries" && e.message.contains("limit is 10000"))
    }

    @Test(
        "limits: a number of an unknown field or intent parameter whose power of ten passes ±1,000,000,000 fails naming the limit",
        arguments: [
            "1e1000000001", "10e1000000000", "1e-1000000001", "0.1e-1000000000", "-1e99999999999999999999999",
            "18000000000000000000000000E003709551615",
        ])
    func numberExponentLimit(number: String) throws {
        for line in [
            #"{"type":"app.foreground","time":"2026-11-20T07:00:00Z","app":"a","note":{"n":[\#(number)]}}"#,
            #"{"type":"intent.donated","time":"2026-11-20T07:00:00Z","app":"a","api":"appIntents","intent":{"intent":"I","parameters":{"n":\#(number)}}}"#,
        ] {
            let e = try #require(error(line), "\(line)")
            #expect(e.message.contains("the limit of a number's exponent"), "\(e.message)")
        }
    }

    @Test(
        "limits: an envelope given as a value holds to a line's 4096 bytes a string, counted as JSON writes it",
        arguments: ["device", "app", "id", "source.path", "source.stream"])
    func envelopeStringLimit(field: String) throws {
        func envelope(_ value: String) -> Envelope {
            Envelope(
                type: "app.foreground", time: Timestamp(microseconds: 1_637_000_000_000_000, offsetMinutes: 0),
                device: field == "device" ? value : "phone", app: field == "app" ? value : "com.example.app",
                id: field == "id" ? value : "id-1",
                source: Provenance(
                    artifact: String(repeating: "ab", count: 32), path: field == "source.path" ? value : "k.db",
                    stream: field == "source.stream" ? value : "/app/usage", locatorJSON: "12"))
        }
        func decoded(_ value: String) throws -> Event {
            var decoder = EventDecoder()
            var checked: String?
            return try Array("{}".utf8).withUnsafeBytes {
                try decoder.decode(envelope: envelope(value), fields: $0, checkedArtifact: &checked)
            }
        }
        _ = try decoded(String(repeating: "a", count: 4096))
        _ = try decoded(String(repeating: "\"", count: 2048))
        for over in [
            String(repeating: "a", count: 4097), String(repeating: "\"", count: 2049),
            "\u{1}" + String(repeating: "é", count: 2046),
        ] {
            let e = try #require(throws: FieldError.self) { try decoded(over) }
            #expect(e.field == field && e.message.contains("limit of 4096 bytes"), "\(e)")
            // The same value in a line fails there too.
            var quoted = CanonicalWriter()
            quoted.string(over)
            let line = try decoded("x").canonicalJSON.replacing(#":"x""#, with: ":" + quoted.text)
            #expect(line.utf8.count > 4096)
            #expect(try #require(error(line)).message.contains("limit of 4096 bytes"))
        }
    }

    @Test("limits: a line of 8 MiB passes, one byte more fails naming the limit")
    func lineLimit() throws {
        let head = #"{"type":"app.foreground","time":"2026-11-20T07:00:00Z","app":"a""#
        func line(_ bytes: Int) -> String { head + String(repeating: " ", count: bytes - head.utf8.count - 1) + "}" }
        #expect(error(line(8 << 20)) == nil)
        #expect(try #require(error(line((8 << 20) + 1))).message.contains("the limit is 8 MiB"))
    }

    @Test("limits: strings of 4 KiB pass, longer fail; nesting deeper than 16 fails")
    func stringAndNestingLimits() throws {
        let ok =
            #"{"type":"stack.scrolled","time":"2026-11-20T07:00:00Z","stack":"\#(String(repeating: "s", count: 4096))","instance":"i"}"#
        #expect(error(ok) == nil)
        let long =
            #"{"type":"stack.scrolled","time":"2026-11-20T07:00:00Z","stack":"\#(String(repeating: "s", count: 4097))","instance":"i"}"#
        #expect(try #require(error(long)).message.contains("limit of 4096 bytes"))
        let deep =
            #"{"type":"app.foreground","time":"2026-11-20T07:00:00Z","app":"a","x":"#
            + String(repeating: "[", count: 16) + String(repeating: "]", count: 16) + "}"
        #expect(try #require(error(deep)).message.contains("nesting exceeds the limit of 16"))
        let shallow =
            #"{"type":"app.foreground","time":"2026-11-20T07:00:00Z","app":"a","x":"#
            + String(repeating: "[", count: 15) + String(repeating: "]", count: 15) + "}"
        #expect(error(shallow) == nil)
    }

    @Test("limits: 64 intent parameters pass, 65 fail; 1,000 shortcuts pass, 1,001 fail")
    func setLimits() throws {
        func donation(_ n: Int) -> String {
            let params = (0..<n).map { #""p\#($0)":\#($0)"# }.joined(separator: ",")
            return
                #"{"type":"intent.donated","time":"2026-11-20T07:00:00Z","app":"a","api":"appIntents","intent":{"intent":"I","parameters":{\#(params)}}}"#
        }
        #expect(error(donation(64)) == nil)
        #expect(try #require(error(donation(65))).message.contains("limit is 64"))
        func shortcuts(_ n: Int) -> String {
            let s = #"{"widgetKind":"k","intent":null,"relevanceProviders":[]}"#
            return #"{"type":"shortcuts.relevantSet","time":"2026-11-20T07:00:00Z","app":"a","shortcuts":["#
                + Array(repeating: s, count: n).joined(separator: ",") + "]}"
        }
        #expect(error(shortcuts(1000)) == nil)
        #expect(try #require(error(shortcuts(1001))).message.contains("limit is 1000"))
    }

    @Test("an intent parameter must be a scalar")
    func parameterScalars() throws {
        let line =
            #"{"type":"intent.donated","time":"2026-11-20T07:00:00Z","app":"a","api":"appIntents","intent":{"intent":"I","parameters":{"p":[1]}}}"#
        #expect(try #require(error(line)).message.contains("JSON scalar"))
    }

    @Test("a trailing carriage return is tolerated; invalid UTF-8 is not")
    func lineEnds() throws {
        var decoder = EventDecoder()
        _ = try decoder.decode(#"{"type":"system.developerMode","time":"2026-11-20T07:00:00Z","enabled":true}"# + "\r")
        let bytes: [UInt8] =
            Array(#"{"type":"stack.scrolled","time":"2026-11-20T07:00:00Z","stack":""#.utf8) + [0xFF, 0xFE]
            + Array(#"","instance":"i"}"#.utf8)
        #expect(throws: FieldError.self) { try bytes.withUnsafeBytes { try decoder.decode(line: $0) } }
    }
}

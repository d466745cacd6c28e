import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@Suite("Canonical form")
struct CanonicalFormTests {
    func canonical(_ line: String) throws -> String {
        var d = EventDecoder()
        return try d.decode(line).canonicalJSON
    }

    @Test("envelope keys first, fields in contract order, unknown keys last in input order")
    func keyOrder() throws {
        let line = #"{"zz":1,"position":1,"widget":{"configuration":null,"family":"systemSmall","kind":"K","app":"a","instance":"w"},"stack":"s","time":"2026-03-02T06:00:02Z","type":"stack.widgetAdded","aa":[true]}"#
        #expect(try canonical(line) == #"{"type":"stack.widgetAdded","time":"2026-03-02T06:00:02Z","stack":"s","widget":{"instance":"w","app":"a","kind":"K","family":"systemSmall","configuration":null},"position":1,"zz":1,"aa":[true]}"#)
    }

    @Test("defaults are omitted: device, toggles, duration 0, policy atEnd, role action")
    func defaults() throws {
        #expect(try canonical(#"{"type":"stack.created","time":"2026-03-02T06:00:00Z","device":"default","stack":"s","platform":"iOS","family":"f","smartRotate":true,"widgetSuggestions":true}"#)
                == #"{"type":"stack.created","time":"2026-03-02T06:00:00Z","stack":"s","platform":"iOS","family":"f"}"#)
        #expect(try canonical(#"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":1,"duration":0}}],"policy":"atEnd"}"#)
                == #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":1}}]}"#)
        #expect(try canonical(#"{"type":"shortcuts.relevantSet","time":"2026-03-02T06:00:00Z","app":"a","shortcuts":[{"widgetKind":"k","role":"action","intent":null,"relevanceProviders":[]}]}"#)
                == #"{"type":"shortcuts.relevantSet","time":"2026-03-02T06:00:00Z","app":"a","shortcuts":[{"widgetKind":"k","intent":null,"relevanceProviders":[]}]}"#)
    }

    @Test("numbers: shortest round trip, integral ones without a decimal point", arguments: [
        ("10.0", "10"), ("52.6", "52.6"), ("1e2", "100"), ("-0.5", "-0.5"), ("0.1", "0.1"), ("1E-7", "1e-07"), ("16.290", "16.29"),
    ])
    func numbers(input: String, output: String) throws {
        let line = #"{"type":"widget.timeline","time":"2026-03-02T06:00:00Z","app":"a","kind":"k","entries":[{"date":"2026-03-02T06:00:00Z","relevance":{"score":\#(input)}}]}"#
        #expect(try canonical(line).contains(#"{"score":\#(output)}"#))
    }

    @Test("strings: escapes resolved, only what must be escaped is")
    func strings() throws {
        let line = #"{"type":"stack.scrolled","time":"2026-03-02T06:00:00Z","stack":"caf\u00e9 \"q\" \/ \n","instance":"\ud83c\udf89"}"#
        #expect(try canonical(line) == #"{"type":"stack.scrolled","time":"2026-03-02T06:00:00Z","stack":"café \"q\" / \n","instance":"🎉"}"#)
    }

    @Test("canonical form is a fixed point over random valid events")
    func fixedPoint() throws {
        var random = RandomEvents(seed: 7)
        var decoder = EventDecoder()
        for i in 0..<2000 {
            let line = random.line(seqHint: i)
            let event = try decoder.decode(line)
            let once = event.canonicalJSON
            let again = try decoder.decode(once)
            #expect(again == event, "\(line)")
            #expect(again.canonicalJSON == once)
        }
    }

    @Test("every scenario in the repository decodes")
    func scenarios() throws {
        for name in ["cards-day", "calendar-suggestion", "watch-workout"] {
            let text = try String(contentsOfFile: Fixtures.path("scenarios/\(name).ndjson"), encoding: .utf8)
            var decoder = EventDecoder()
            for line in text.split(separator: "\n") { _ = try decoder.decode(String(line)) }
        }
    }
}

import Foundation

import RecordFormat
import Testing

@testable import SmartStack

/// An event given as a typed body decodes exactly as the same body written as JSON: the
/// same event (the same stored bytes), or the same error.
@Suite("Typed bodies decode as their JSON")
struct TypedDecodeTests {
    /// A small deterministic generator, so that a failure names its case.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    }

    static let strings = [
        "", "w", "com.example.widget7", "quote\"d", "back\\slash", "tab\there", "line\nbreak", "é ü 漢字", "\u{1F600}",
        String(repeating: "a", count: 4096), String(repeating: "a", count: 4097), "type", "kind", "duration",
    ]
    static let numbers: [Double] = [
        0, -0.0, 1, 12.5, -3, 0.1 + 0.2, 1e-7, 315_576_000, 315_576_000.5, 9_007_199_254_740_994, .nan, .infinity,
        -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]

    static func optional<T>(_ g: inout Generator, _ values: [T]) -> T? {
        g.next() % 4 == 0 ? nil : g.pick(values)
    }

    static func body(_ g: inout Generator, developerMode: DeveloperMode) -> EventBody {
        switch g.next() % 6 {
        case 0: return .appForeground(AppForeground(duration: optional(&g, numbers)))
        case 1:
            let contexts: [RelevantContext] = [
                .deviceState("backlight"), .deviceState("locked"), .deviceState("lowPower"), .deviceState("radio"),
                .fitness("workoutActive"), .sleep("nap"),
            ]
            return .contextChanged(ContextChanged(context: g.pick(contexts), active: g.next() % 2 == 0))
        case 2:
            var intent = Intent(name: g.pick(strings))
            if g.next() % 5 == 0 { intent.parameters = [JSONMember("p", .number(1))] }
            return .intentDonated(
                IntentDonated(
                    api: g.pick(["siriKit", "appIntents", "other"]), intent: intent,
                    predictionParameters: g.next() % 6 == 0 ? ["p"] : nil, donationId: optional(&g, strings),
                    groupIdentifier: optional(&g, strings)))
        case 3:
            return .widgetViewed(
                Engagement(
                    instance: optional(&g, strings), kind: optional(&g, strings), duration: optional(&g, numbers),
                    stack: optional(&g, strings), inStack: g.next() % 3 == 0 ? nil : g.next() % 2 == 0))
        case 4:
            return .widgetReloaded(
                WidgetReloaded(
                    kind: g.pick(strings), instance: optional(&g, strings), reason: optional(&g, strings),
                    budgetRemaining: optional(&g, numbers)))
        default:
            // A type without a direct path: always written as JSON.
            var mode = developerMode
            mode.enabled = g.next() % 2 == 0
            return .developerMode(mode)
        }
    }

    /// A `system.developerMode` body, decoded (its shape has no initializer of its own).
    static func developerMode() throws -> DeveloperMode? {
        var decoder = EventDecoder()
        let line = #"{"type":"system.developerMode","time":"2026-11-20T07:00:00Z","enabled":true}"#
        guard case .developerMode(let mode) = try decoder.decode(line).body else { return nil }
        return mode
    }

    static func extras(_ g: inout Generator) -> [JSONMember] {
        (0..<Int(g.next() % 4)).map { _ in
            let value: JSONValue
            switch g.next() % 5 {
            case 0: value = .null
            case 1: value = .bool(g.next() % 2 == 0)
            case 2: value = .string(g.pick(strings))
            case 3: value = .number(g.pick(numbers))
            default: value = .array([.number(1)])
            }
            return JSONMember(g.pick(["verb", "expirationDelta", "extra", "app", "kind", "context", ""]), value)
        }
    }

    /// A valid envelope, but for one value in ten made invalid.
    static func envelope(_ g: inout Generator, type: String) -> Envelope {
        func valid<T>(_ good: T, _ bad: T, _ g: inout Generator) -> T { g.next() % 10 == 0 ? bad : good }
        let time = Timestamp(microseconds: g.pick([0, 5_000_000, 1_637_000_000_000_000]), offsetMinutes: 0)
        let source = Provenance(
            artifact: valid(String(repeating: "ab", count: 32), "not-a-hash", &g), path: valid("k.db", "", &g),
            stream: "/app/usage", locatorJSON: valid(g.pick(["12", "\"12/part\""]), "012", &g))
        return Envelope(
            type: valid(type, "app.foreground", &g), time: time, device: valid("phone", "", &g),
            app: valid(optional(&g, ["com.example.app"]), "", &g), id: valid("id-1", "", &g), source: source)
    }

    /// The event's canonical line, and the bits of its numbers (a zero's sign, which the
    /// line does not show but the stored record keeps).
    static func stored(_ event: Event) -> String {
        var w = CanonicalWriter()
        event.writeCanonical(&w)
        var numbers: [Double?] = []
        switch event.body {
        case .appForeground(let a): numbers = [a.duration]
        case .widgetViewed(let e): numbers = [e.duration]
        case .widgetReloaded(let r): numbers = [r.budgetRemaining]
        default: break
        }
        return w.text + "|" + numbers.map { $0.map { String($0.bitPattern) } ?? "-" }.joined(separator: ",")
    }

    @Test("20,000 generated bodies, extras and envelopes: the same event or the same error both ways")
    func typedMatchesJSON() throws {
        let developerMode = try #require(try Self.developerMode())
        var g = Generator(state: 2026)
        var accepted = 0
        var rejected = 0
        for _ in 0..<20_000 {
            let body = Self.body(&g, developerMode: developerMode)
            let extras = Self.extras(&g)
            let envelope = Self.envelope(&g, type: body.typeName)
            var w = CanonicalWriter(capacity: 256)
            w.beginObject()
            body.writeMembers(&w)
            w.members(extras)
            w.endObject()
            var fromJSON = EventDecoder()
            var fromBody = EventDecoder()
            var artifact: String?
            var artifact2: String?
            let expected = Result { () throws(FieldError) -> Event in
                try w.bytes.withUnsafeBytes { fields in
                    Result { () throws(FieldError) -> Event in
                        try fromJSON.decode(envelope: envelope, fields: fields, checkedArtifact: &artifact)
                    }
                }.get()
            }
            let actual = Result { () throws(FieldError) -> Event in
                try fromBody.decode(envelope: envelope, body: body, extras: extras, checkedArtifact: &artifact2)
            }
            switch (expected, actual) {
            case (.success(let e), .success(let a)):
                accepted += 1
                #expect(Self.stored(a) == Self.stored(e), "\(body) \(extras)")
            case (.failure(let e), .failure(let a)):
                rejected += 1
                #expect(a.field == e.field && a.message == e.message, "\(body) \(extras)")
            default:
                Issue.record("one way decodes, the other does not: \(body) \(extras) \(envelope)")
            }
        }
        // Both outcomes are exercised in numbers.
        #expect(accepted > 2_000 && rejected > 2_000, "\(accepted) accepted, \(rejected) rejected")
    }
}

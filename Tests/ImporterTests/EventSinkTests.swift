import Importers
import Ledger
import SmartStack
import Testing

/// An importer's events are given their envelope as values and decoded from their type's
/// fields alone: each must be exactly the event its whole line decodes to, and each rule of
/// a line must still hold.
@Suite("Event sink")
struct EventSinkTests {
    static let artifact = String(repeating: "ab", count: 32)

    func sink(device: String = Envelope.defaultDevice, artifact: String = Self.artifact) -> EventSink {
        EventSink(context: ArtifactContext(sha256: artifact, path: "private/var/x/knowledgeC.db", device: device))
    }

    @Test("each yielded event equals the decoding of its canonical line", arguments: ["default", "phone \"7\""])
    func sameAsTheWholeLine(device: String) throws {
        var sink = sink(device: device)
        let when = Timestamp(microseconds: 1_700_000_000_123_456, offsetMinutes: 60)
        #expect(
            sink.yield("app.foreground", time: when, app: "com.example.a", stream: "/app/inFocus", locator: Locator(7))
            {
                $0.key("duration")
                $0.number(12.5)
            })
        #expect(
            sink.yield(
                "widget.viewed", time: when, app: "com.example.b", stream: "/dasd/widgetView",
                locator: Locator(-3, part: "end")
            ) {
                $0.key("kind")
                $0.string("Kind \u{1F600} \"quoted\"")
                $0.key("inStack")
                $0.bool(true)
            })
        #expect(
            sink.yield("context.changed", time: when, stream: "/device/isLocked", locator: Locator(Int64.max)) {
                $0.key("context")
                $0.beginObject()
                $0.key("device")
                $0.string("locked")
                $0.endObject()
                $0.key("active")
                $0.bool(false)
            })
        let events = sink.events.events
        #expect(events.count == 3)
        var decoder = EventDecoder()
        for event in events {
            #expect(try decoder.decode(event.canonicalJSON) == event)
            #expect(event.envelope.source?.artifact == Self.artifact)
            #expect(event.envelope.device == device)
        }
        #expect(events.map { $0.envelope.source?.locatorJSON } == ["7", "\"-3/end\"", "\(Int64.max)"])
    }

    @Test("a value a line may not hold is refused, naming its field")
    func rulesHold() throws {
        let when = Timestamp(microseconds: 1_700_000_000_000_000)
        var sink = sink()
        // An empty app, a negative duration, a widget named by nothing, an unknown type.
        #expect(!sink.yield("app.foreground", time: when, app: "", stream: "s", locator: Locator(1)) { _ in })
        #expect(
            !sink.yield("app.foreground", time: when, app: "a", stream: "s", locator: Locator(2)) {
                $0.key("duration")
                $0.number(-1)
            })
        #expect(!sink.yield("widget.viewed", time: when, stream: "s", locator: Locator(3)) { _ in })
        #expect(!sink.yield("widget.sideways", time: when, app: "a", stream: "s", locator: Locator(4)) { _ in })
        #expect(
            !sink.yield("app.foreground", time: when, app: "a", stream: "s", locator: Locator(5)) {
                $0.key("app")
                $0.string("b")
            })
        #expect(sink.rejected.map(\.locator.position) == [1, 2, 3, 4, 5])
        let reasons = sink.rejected.map(\.reason)
        #expect(reasons[0].hasPrefix("field app: "))
        #expect(reasons[1].hasPrefix("field duration: "))
        #expect(reasons[2].hasPrefix("field instance: "))
        #expect(reasons[3].hasPrefix("field type: "))
        #expect(reasons[4].hasPrefix("field app: "))
        var badHash = self.sink(artifact: "not a hash")
        #expect(!badHash.yield("app.foreground", time: when, app: "a", stream: "s", locator: Locator(6)) { _ in })
        #expect(badHash.rejected.first?.reason.hasPrefix("field source.artifact: ") == true)
        #expect(sink.events.count == 0 && badHash.events.count == 0)
    }
}

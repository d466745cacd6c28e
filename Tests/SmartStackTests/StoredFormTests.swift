import Foundation
import RecordFormat
import StackLedgerTesting
import Testing

@testable import SmartStack

/// Gives interned strings ids in the order first seen, as a new store does.
private final class SequentialInterner: StringInterning {
    var ids: [String: UInt32] = [:]
    var strings = [""]

    func id(for string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(strings.count)
        ids[string] = id
        strings.append(string)
        return id
    }
}

@Suite("Stored form")
struct StoredFormTests {
    /// The fixture's lines, one event each.
    static func lines() throws -> [String] {
        try String(contentsOfFile: Fixtures.path("stored-forms.ndjson"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    /// Each line's payload in hex, as stores hold it (`stored-forms.hex`, one line per event).
    static func payloads() throws -> [String] {
        let interner = SequentialInterner()
        var out = [String]()
        for line in try lines() {
            var decoder = EventDecoder()
            let event = try decoder.decode(line)
            var writer = PayloadWriter(bytes: ByteWriter(capacity: 64), interner: interner)
            event.encodePayload(into: &writer)
            out.append(writer.bytes.bytes.map { String(format: "%02x", $0) }.joined())
        }
        return out
    }

    @Test("every event type's stored form is the one stores already hold, byte for byte")
    func storedBytesUnchanged() throws {
        let lines = try Self.lines()
        #expect(lines.count >= EventType.allCases.count)
        let kept = try String(contentsOfFile: Fixtures.path("stored-forms.hex"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let made = try Self.payloads()
        #expect(made.count == kept.count)
        for (i, (m, k)) in zip(made, kept).enumerated() {
            #expect(m == k, "line \(i + 1): \(lines[i])")
        }
    }

    @Test("the fixture names every event type")
    func everyType() throws {
        var types = Set<String>()
        for line in try Self.lines() {
            var decoder = EventDecoder()
            types.insert(try decoder.decode(line).envelope.type)
        }
        #expect(types == Set(EventType.allCases.map(\.rawValue)))
    }

    @Test("a stored payload reads back as the event it was made from, in canonical form")
    func readsBack() throws {
        let interner = SequentialInterner()
        for line in try Self.lines() {
            var decoder = EventDecoder()
            let event = try decoder.decode(line)
            var writer = PayloadWriter(bytes: ByteWriter(capacity: 64), interner: interner)
            event.encodePayload(into: &writer)
            let bytes = writer.bytes.bytes
            let back: Event = try bytes.withUnsafeBytes { raw in
                var b = BinaryIn(
                    r: PayloadReader(bytes: ByteReader(raw), strings: interner.strings), base: event.envelope.time)
                let body = try event.type.decodeBody(&b)
                let extras = try b.extras()
                #expect(b.r.bytes.isAtEnd, "\(line)")
                return Event(envelope: event.envelope, body: body, extras: extras)
            }
            #expect(back.canonicalJSON == event.canonicalJSON)
        }
    }
}

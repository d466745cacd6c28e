public import Ledger

/// One event of the contract: the envelope, the typed body, and any top-level fields
/// the contract does not name (kept and exported unchanged).
///
/// Equality is canonical equality: two events are equal exactly when their canonical
/// NDJSON lines are the same.
public struct Event: Hashable, Sendable {
    /// The envelope (type, time, device, app, id, source).
    public var envelope: Envelope
    /// The typed fields.
    public var body: EventBody
    /// Unknown top-level fields, in input order.
    public var extras: [JSONMember]

    /// Creates an event; the envelope's type is taken from the body.
    public init(time: Timestamp, device: String = Envelope.defaultDevice, app: String? = nil,
                id: String? = nil, source: Provenance? = nil, body: EventBody, extras: [JSONMember] = []) {
        self.envelope = Envelope(type: body.typeName, time: time, device: device, app: app, id: id, source: source)
        self.body = body
        self.extras = extras
    }

    /// The event's type.
    public var type: EventType { EventType(body) }
}

extension Event: LedgerPayload {
    /// The index key of every `device.info` event (how local time zones are found).
    public static let deviceInfoKey = "type:device.info"

    /// Index keys: the app (`app:`), every widget kind (`kind:`) and instance
    /// (`instance:`) the event names.
    public var indexKeys: [String] {
        var keys = [String]()
        if let app = envelope.app { keys.append("app:" + app) }
        func kind(_ k: String?) { if let k, !keys.contains("kind:" + k) { keys.append("kind:" + k) } }
        func instance(_ i: String?) { if let i, !keys.contains("instance:" + i) { keys.append("instance:" + i) } }
        switch body {
        case .widgetAdded(let a):
            if !keys.contains("app:" + a.widget.app) { keys.append("app:" + a.widget.app) }
            kind(a.widget.kind); instance(a.widget.instance)
        case .widgetRemoved(let s), .widgetPinned(let s), .widgetUnpinned(let s), .scrolled(let s): instance(s.instance)
        case .widgetMoved(let m): instance(m.instance)
        case .suggestionKept(let s), .suggestionDismissed(let s): kind(s.kind); instance(s.instance)
        case .widgetViewed(let e), .widgetTapped(let e): kind(e.kind); instance(e.instance)
        case .widgetTimeline(let t): kind(t.kind); instance(t.instance)
        case .widgetDeclared(let d): kind(d.kind)
        case .reloadRequested(let r): kind(r.kind)
        case .widgetReloaded(let r): kind(r.kind); instance(r.instance)
        case .relevantShortcuts(let s): for x in s.shortcuts { kind(x.widgetKind) }
        case .relevantIntents(let s): for x in s.intents { kind(x.widgetKind) }
        case .widgetRelevance(let r): kind(r.kind)
        case .stackObserved(let o): kind(o.kind); instance(o.instance)
        case .deviceInfo: keys.append(Event.deviceInfoKey)
        default: break
        }
        return keys
    }

    /// Writes the body, then the unknown fields.
    public func encodePayload(into writer: inout PayloadWriter) {
        var out = BinaryOut(w: writer, base: envelope.time)
        writer = PayloadWriter.detached(from: writer)
        body.shape.encode(&out)
        out.extras(extras)
        writer = out.w
    }
}

extension PayloadWriter {
    /// A writer that shares the interner but not the bytes (so the caller's buffer stays
    /// uniquely referenced while it is moved through `BinaryOut`).
    static func detached(from w: PayloadWriter) -> PayloadWriter {
        var copy = w
        copy.bytes = ByteWriter(capacity: 0)
        return copy
    }
}

extension Event {
    /// Decodes a stored record back into an event.
    /// - Throws: `ByteReader.Error` when the payload is malformed, or the type unknown.
    public init(record: RecordView) throws {
        guard let type = EventType(rawValue: record.envelope.type) else {
            throw ByteReader.Error(offset: 0, expected: "a known event type (found \(record.envelope.type))")
        }
        var b = BinaryIn(r: record.payloadReader(), base: record.envelope.time)
        self.envelope = record.envelope
        self.body = try type.decodeBody(&b)
        self.extras = try b.extras()
        guard b.r.bytes.isAtEnd else { throw ByteReader.Error(offset: b.r.bytes.offset, expected: "the end of the payload") }
    }
}

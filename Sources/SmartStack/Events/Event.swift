public import RecordFormat

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
    public init(
        time: Timestamp, device: String = Envelope.defaultDevice, app: String? = nil,
        id: String? = nil, source: Provenance? = nil, body: EventBody, extras: [JSONMember] = []
    ) {
        self.envelope = Envelope(type: body.typeName, time: time, device: device, app: app, id: id, source: source)
        self.body = body
        self.extras = extras
    }

    /// An event whose envelope already names the body's type.
    init(envelope: Envelope, body: EventBody, extras: [JSONMember]) {
        self.envelope = envelope
        self.body = body
        self.extras = extras
    }

    /// The event's type.
    public var type: EventType { EventType(body) }
}

extension Event: LedgerPayload {
    /// The namespaces of the index keys events carry.
    public enum IndexNamespace {
        /// The app's bundle id.
        public static let app: UInt8 = 1
        /// A widget kind the event names.
        public static let kind: UInt8 = 2
        /// A widget instance the event names.
        public static let instance: UInt8 = 3
        /// The event type, for the few types that are looked up by type.
        public static let type: UInt8 = 4
    }

    /// The index key of every `device.info` event (how local time zones are found).
    public static let deviceInfoKey = IndexKey(namespace: IndexNamespace.type, value: EventType.deviceInfo.rawValue)

    /// The index key of every `stack.layoutObserved` event (how a fold finds the layouts
    /// that stacks are assumed from before their time).
    public static let layoutObservedKey = IndexKey(
        namespace: IndexNamespace.type, value: EventType.layoutObserved.rawValue)

    /// Index keys: the app, every widget kind and instance the event names.
    public func forEachIndexKey(_ emit: (IndexKey) -> Void) {
        func app(_ a: String) { emit(IndexKey(namespace: IndexNamespace.app, value: a)) }
        func kind(_ k: String?) { if let k { emit(IndexKey(namespace: IndexNamespace.kind, value: k)) } }
        func instance(_ i: String?) { if let i { emit(IndexKey(namespace: IndexNamespace.instance, value: i)) } }
        if let a = envelope.app { app(a) }
        switch body {
        case .widgetAdded(let a):
            app(a.widget.app)
            kind(a.widget.kind)
            instance(a.widget.instance)
        case .widgetRemoved(let s), .widgetPinned(let s), .widgetUnpinned(let s), .scrolled(let s): instance(s.instance)
        case .widgetMoved(let m): instance(m.instance)
        case .suggestionKept(let s):
            kind(s.kind)
            instance(s.instance)
        case .suggestionDismissed(let s):
            kind(s.kind)
            instance(s.instance)
        case .widgetViewed(let e), .widgetTapped(let e):
            kind(e.kind)
            instance(e.instance)
        case .widgetTimeline(let t):
            kind(t.kind)
            instance(t.instance)
        case .widgetDeclared(let d): kind(d.kind)
        case .reloadRequested(let r): kind(r.kind)
        case .widgetReloaded(let r):
            kind(r.kind)
            instance(r.instance)
        case .relevantShortcuts(let s): for x in s.shortcuts { kind(x.widgetKind) }
        case .relevantIntents(let s): for x in s.intents { kind(x.widgetKind) }
        case .widgetRelevance(let r): kind(r.kind)
        case .stackObserved(let o):
            kind(o.kind)
            instance(o.instance)
        case .deviceInfo: emit(Event.deviceInfoKey)
        case .stackRotated(let r):
            kind(r.kind)
            instance(r.instance)
        case .suggestionObserved(let o):
            kind(o.kind)
            instance(o.instance)
        case .relevanceObserved(let o): kind(o.kind)
        case .layoutObserved(let l):
            emit(Event.layoutObservedKey)
            for w in l.stacks.flatMap(\.members) + (l.widgets ?? []) {
                app(w.app)
                kind(w.kind)
                instance(w.instance)
            }
        default: break
        }
    }

    /// The index keys, as a list.
    public var indexKeys: [IndexKey] {
        var out = [IndexKey]()
        forEachIndexKey { if !out.contains($0) { out.append($0) } }
        return out
    }

    /// Writes the body, then the unknown fields.
    public func encodePayload(into writer: inout PayloadWriter) {
        var out = BinaryOut(w: writer, base: envelope.time)
        writer = PayloadWriter.detached(from: writer)
        body.encode(&out)
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
    public init(record: borrowing RecordView) throws {
        guard let type = EventType.named(record.envelope.type) else {
            throw ByteReader.Error(offset: 0, expected: "a known event type (found \(record.envelope.type))")
        }
        var b = BinaryIn(r: record.payloadReader(), base: record.envelope.time)
        let body = try type.decodeBody(&b)
        let extras = try b.extras()
        guard b.r.bytes.isAtEnd else {
            throw ByteReader.Error(offset: b.r.bytes.offset, expected: "the end of the payload")
        }
        // Every field is assigned once, after the last check, so nothing is copied or
        // released on the way.
        self.envelope = record.envelope
        self.body = body
        self.extras = extras
    }
}

extension Event {
    /// The widget extension's bundle id that the event carries as `extension` among its
    /// unknown fields (`stack.observed`, `widget.viewed`/`tapped`, `suggestion.dismissed`).
    public var extensionBundle: String? {
        for member in extras where member.key == "extension" {
            if case .string(let s) = member.value { return s }
        }
        return nil
    }
}

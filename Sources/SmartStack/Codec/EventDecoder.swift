import RecordFormat

/// Parses NDJSON lines of the event contract into validated events, reusing its
/// buffers from line to line.
public struct EventDecoder {
    let tape = JSONTape()
    let cache: StringCache?

    /// Creates a decoder.
    ///
    /// - Parameter sharingStrings: reuse one `String` for values that repeat from line to
    ///   line (app ids, kinds, names). Faster when the events stay on this thread; leave it
    ///   off when they are handed to another thread, where the shared reference counts
    ///   would bounce between cores.
    public init(sharingStrings: Bool = true) {
        cache = sharingStrings ? StringCache() : nil
    }

    /// Decodes one line (without its `\n`; a trailing `\r` is tolerated).
    /// - Throws: `FieldError` naming the byte offset, the field and the problem.
    public mutating func decode(line: UnsafeRawBufferPointer) throws(FieldError) -> Event {
        var text = line
        if let last = text.last, last == 0x0D { text = UnsafeRawBufferPointer(rebasing: text[0..<text.count - 1]) }
        guard text.count <= ContractLimits.lineBytes else {
            throw FieldError(offset: 0, field: "", message: "the line is \(text.count) bytes; the limit is 8 MiB")
        }
        return try decodeJSON(text) { r throws(FieldError) in try EventDecoder.event(r) }
    }

    /// Parses `text` as JSON and hands `body` a reader of it; an error `body` throws names
    /// its field's path and offset.
    func decodeJSON(
        _ text: UnsafeRawBufferPointer, _ body: (TapeReader) throws(FieldError) -> Event
    ) throws(FieldError) -> Event {
        do {
            try tape.parse(text)
        } catch {
            throw FieldError(offset: error.offset, field: "", message: "not JSON: \(error.message)")
        }
        return try tape.withReader(text, cache: cache) { (r: TapeReader) throws(FieldError) -> Event in
            do throws(FieldError) {
                return try body(r)
            } catch {
                var e = error
                e.resolve(r)
                throw e
            }
        }
    }

    private static func event(_ r: TapeReader) throws(FieldError) -> Event {
        guard r.token(0).kind == .object else {
            throw FieldError(
                offset: 0, field: "", message: "the line is JSON but not an object; each line must be one event object")
        }
        var f = try ObjectFields(r, 0)
        guard let typeToken = f.take("type") else { throw f.error("type", "is required but missing") }
        let typeName = try f.stringValue(typeToken)
        guard let type = EventType.named(typeName) else {
            throw f.error(
                "type", "\"\(typeName)\" is not an event type of the contract (see docs/events.md)", at: typeToken)
        }
        let time = try f.time("time")
        let device = try f.optionalNonEmptyString("device") ?? Envelope.defaultDevice
        let app: String? = try f.optionalNonEmptyString("app")
        if type.requiresApp && app == nil { throw f.error("app", "is required for \(typeName)") }
        let id: String? = try f.optionalNonEmptyString("id")
        var source: Provenance?
        if let s = f.take("source") {
            source = try EventDecoder.provenance(try f.object(s))
        }
        let envelope = Envelope(type: typeName, time: time, device: device, app: app, id: id, source: source)
        return try finish(type, envelope, &f)
    }

    /// Decodes the type's own fields (what `f` holds but the envelope's keys), checks them
    /// against the envelope, and makes the event.
    static func finish(_ type: EventType, _ envelope: Envelope, _ f: inout ObjectFields) throws(FieldError) -> Event {
        let typeName = envelope.type
        let time = envelope.time
        let app = envelope.app
        let body = try type.decodeBody(&f)
        var span: Double?
        switch body {
        case .widgetViewed(let e), .widgetTapped(let e):
            if e.instance == nil && (app == nil || e.kind == nil) {
                throw f.error("instance", "\(typeName) names its widget by instance, or by app and kind")
            }
            span = e.duration
        case .stackObserved(let o):
            if o.instance == nil && (app == nil || o.kind == nil) {
                throw f.error("instance", "stack.observed names its widget by instance, or by app and kind")
            }
            span = o.duration
        case .appForeground(let a):
            span = a.duration
        case .stackRotated(let r):
            if r.instance == nil && ((app == nil && r.extensionBundle == nil) || r.kind == nil) {
                throw f.error("instance", "stack.rotated names its widget by instance, or by app or extension and kind")
            }
        case .suggestionObserved(let o):
            if app == nil && o.extensionBundle == nil {
                throw f.error("extension", "suggestion.observed names its widget's app or extension")
            }
        case .suggestionDismissed:
            if try f.peekNonEmptyString("extension") == nil && app == nil {
                throw f.error("app", "suggestion.dismissed names its widget's app or extension")
            }
        case .relevanceObserved(let o):
            if app == nil && o.extensionBundle == nil {
                throw f.error("extension", "widget.relevanceObserved names its widget's app or extension")
            }
        default: break
        }
        // An observation covers the `duration` before its `time`.
        if let span, !EventLimits.startFits(time, minus: span) {
            throw f.error(
                "duration", "the time minus the duration lies before 1970; the span must start within 1970-2200")
        }
        let extras = try f.extras()
        return Event(
            time: time, device: envelope.device, app: app, id: envelope.id, source: envelope.source, body: body,
            extras: extras)
    }

    static func provenance(_ o: ObjectFields) throws(FieldError) -> Provenance {
        var f = o
        var p = Provenance()
        // The shape importers write (events.md): all four, the artifact a SHA-256 in hex.
        guard let artifactToken = f.take("artifact") else {
            throw f.error("artifact", "source needs artifact, path, stream and locator; artifact is missing")
        }
        let artifact = try f.stringValue(artifactToken)
        guard isLowercaseHex(artifact, count: 64) else {
            throw f.error("artifact", "must be the file's SHA-256 as 64 lowercase hex digits")
        }
        p.artifact = artifact
        p.path = try f.optionalString("path")
        guard p.path.map({ !$0.isEmpty }) ?? false else {
            throw f.error("path", "source needs a non-empty path (the file's path inside the extraction)")
        }
        p.stream = try f.optionalString("stream")
        guard p.stream.map({ !$0.isEmpty }) ?? false else {
            throw f.error("stream", "source needs a non-empty stream (the Biome stream, knowledgeC stream or table)")
        }
        guard let t = f.take("locator") else {
            throw f.error("locator", "source needs a locator (the record's offset or row id)")
        }
        if let digits = plainInteger(f.r, t) {
            // A record offset as importers write it: its digits are its canonical text.
            p.locatorJSON = digits
        } else {
            guard let v = f.r.value(t), v.isScalar, v != .null else {
                throw f.error("locator", "must be a record offset (number) or row id (string)", at: t)
            }
            p.locatorJSON = CanonicalWriter.text(of: v)
        }
        let extra = try f.extras()
        if !extra.isEmpty {
            var w = CanonicalWriter()
            w.beginObject()
            w.members(extra)
            w.endObject()
            let text = w.text
            p.extraJSON = String(text.dropFirst().dropLast())
        }
        return p
    }

    /// Whether `s` is `count` lowercase hex digits.
    static func isLowercaseHex(_ s: String, count: Int) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            bytes.count == count && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
    }

    /// The text of a number token that is a whole number from 0 below 10^15 written plainly
    /// (no sign, fraction, exponent or leading zero); nil for any other token.
    private static func plainInteger(_ r: TapeReader, _ t: Int) -> String? {
        guard r.token(t).kind == .number else { return nil }
        let raw = r.rawNumber(t)
        guard (1...15).contains(raw.count), raw[0] != UInt8(ascii: "0") || raw.count == 1,
            raw.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// Decodes one line given as a string.
    public mutating func decode(_ line: String) throws(FieldError) -> Event {
        var s = line
        let result = s.withUTF8 { (u: UnsafeBufferPointer<UInt8>) -> Result<Event, FieldError> in
            do throws(FieldError) { return .success(try decode(line: UnsafeRawBufferPointer(u))) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension Event {
    /// The event's canonical NDJSON line (without the newline), as `export events` writes it.
    public var canonicalJSON: String {
        var w = CanonicalWriter()
        writeCanonical(&w)
        return w.text
    }

    /// Writes the canonical object: envelope keys first, then the type's fields in
    /// contract order, then unknown keys in input order.
    public func writeCanonical(_ w: inout CanonicalWriter, extraMembers: (inout CanonicalWriter) -> Void = { _ in }) {
        w.beginObject()
        w.key("type")
        w.string(envelope.type)
        w.key("time")
        w.time(envelope.time)
        if envelope.device != Envelope.defaultDevice {
            w.key("device")
            w.string(envelope.device)
        }
        if let app = envelope.app {
            w.key("app")
            w.string(app)
        }
        if let id = envelope.id {
            w.key("id")
            w.string(id)
        }
        if let s = envelope.source {
            w.key("source")
            w.beginObject()
            if let a = s.artifact {
                w.key("artifact")
                w.string(a)
            }
            if let p = s.path {
                w.key("path")
                w.string(p)
            }
            if let st = s.stream {
                w.key("stream")
                w.string(st)
            }
            if let l = s.locatorJSON {
                w.key("locator")
                w.raw(l)
            }
            if let x = s.extraJSON { w.rawMembers(x) }
            w.endObject()
        }
        body.writeMembers(&w)
        w.members(extras)
        extraMembers(&w)
        w.endObject()
    }
}

extension EventBody {
    /// Writes the type's fields as one canonical JSON object, for display.
    public func writeFieldsForDisplay(_ w: inout CanonicalWriter) {
        w.beginObject()
        writeMembers(&w)
        w.endObject()
    }
}

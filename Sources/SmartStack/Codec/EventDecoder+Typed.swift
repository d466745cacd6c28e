public import RecordFormat

extension EventDecoder {
    /// Makes an event from an envelope and a typed body, with `extras` as its unknown
    /// fields, exactly as `decode(envelope:fields:checkedArtifact:)` makes it from the same
    /// body and extras written as canonical JSON: the same event, or the same error.
    ///
    /// The bodies an importer yields by the million (`app.foreground`, `context.changed` of
    /// a device state, `intent.donated` of an intent without parameters, `widget.viewed`,
    /// `widget.reloaded`) are accepted directly when every value is plainly valid. Any other
    /// body, and any value that is not plainly valid (an empty or escaped string, a number
    /// out of range, an extra that is not a scalar), is written as JSON and decoded, so that
    /// the contract's rules and messages have one source.
    public mutating func decode(
        envelope: Envelope, body: EventBody, extras: [JSONMember] = [], checkedArtifact: inout String?
    ) throws(FieldError) -> Event {
        if let event = Self.accepted(envelope, body, extras, checkedArtifact: &checkedArtifact) {
            assert(
                (try? decodeWritten(envelope, body, extras, checkedArtifact: &checkedArtifact)) == event,
                "an event accepted directly differs from the same event decoded from JSON")
            return event
        }
        return try decodeWritten(envelope, body, extras, checkedArtifact: &checkedArtifact)
    }

    private mutating func decodeWritten(
        _ envelope: Envelope, _ body: EventBody, _ extras: [JSONMember], checkedArtifact: inout String?
    ) throws(FieldError) -> Event {
        var writer = CanonicalWriter(capacity: 256)
        writer.beginObject()
        body.writeMembers(&writer)
        writer.members(extras)
        writer.endObject()
        var failure: FieldError?
        let event = writer.bytes.withUnsafeBytes { (fields) -> Event? in
            do throws(FieldError) {
                return try decode(envelope: envelope, fields: fields, checkedArtifact: &checkedArtifact)
            } catch {
                failure = error
                return nil
            }
        }
        guard let event else { throw failure ?? FieldError(offset: 0, field: "", message: "cannot be decoded") }
        return event
    }

    /// The event, when the body is one of those accepted directly and every value is
    /// plainly valid; nil for the JSON path to decide.
    private static func accepted(
        _ envelope: Envelope, _ body: EventBody, _ extras: [JSONMember], checkedArtifact: inout String?
    ) -> Event? {
        let type = EventType(body)
        guard envelope.type == type.rawValue else { return nil }
        var body = body
        var span: Double?
        let ownKeys: [String]
        switch body {
        case .appForeground(var a):
            guard plainDuration(&a.duration) else { return nil }
            span = a.duration
            body = .appForeground(a)
            ownKeys = ["duration"]
        case .contextChanged(let c):
            guard case .deviceState(let state) = c.context, RelevantContext.deviceValues.contains(state) else {
                return nil
            }
            ownKeys = ["context", "active"]
        case .intentDonated(let d):
            guard d.api == "appIntents" || d.api == "siriKit", plainNonEmpty(d.intent.name),
                d.intent.parameters == nil, d.intent.extras.isEmpty, d.predictionParameters == nil,
                d.donationId.map(plainNonEmpty) ?? true, d.groupIdentifier.map(plainNonEmpty) ?? true
            else { return nil }
            ownKeys = ["api", "intent", "predictionParameters", "donationId", "groupIdentifier"]
        case .widgetViewed(var e):
            guard e.instance.map(plainNonEmpty) ?? true, e.kind.map(plainNonEmpty) ?? true,
                e.stack.map(plainNonEmpty) ?? true, plainDuration(&e.duration),
                e.instance != nil || (envelope.app != nil && e.kind != nil)
            else { return nil }
            span = e.duration
            body = .widgetViewed(e)
            ownKeys = ["instance", "kind", "duration", "stack", "inStack"]
        case .widgetReloaded(var r):
            guard plainNonEmpty(r.kind), r.instance.map(plainNonEmpty) ?? true, r.reason.map(plain) ?? true,
                plainNumber(&r.budgetRemaining)
            else { return nil }
            body = .widgetReloaded(r)
            ownKeys = ["kind", "instance", "reason", "budgetRemaining"]
        default:
            return nil
        }
        if let span, !EventLimits.startFits(envelope.time, minus: span) { return nil }
        guard plainExtras(extras, apartFrom: ownKeys) else { return nil }
        var checked = checkedArtifact
        guard (try? check(envelope, type, checkedArtifact: &checked)) != nil else { return nil }
        checkedArtifact = checked
        return Event(envelope: envelope, body: body, extras: extras)
    }

    /// Whether `s` is written in JSON as its own bytes (nothing escaped) within the
    /// parser's limit for a string.
    private static func plain(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            bytes.count <= 4096
                && !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
    }

    private static func plainNonEmpty(_ s: String) -> Bool { !s.isEmpty && plain(s) }

    /// Whether a number field is absent or finite; a zero is made positive, as JSON has one.
    private static func plainNumber(_ d: inout Double?) -> Bool {
        guard let value = d else { return true }
        guard value.isFinite else { return false }
        if value == 0 { d = 0 }
        return true
    }

    /// Whether a duration is absent or within 0 to the contract's maximum.
    private static func plainDuration(_ d: inout Double?) -> Bool {
        guard plainNumber(&d) else { return false }
        guard let value = d else { return true }
        return value >= 0 && value <= EventLimits.maximumDurationSeconds
    }

    /// The envelope's keys, compared one by one (a few short strings).
    private static let envelopeKeyList = ["type", "time", "device", "app", "id", "source"]

    /// Whether `extras` are scalars under distinct plain keys that are neither the
    /// envelope's nor the type's own.
    private static func plainExtras(_ extras: [JSONMember], apartFrom ownKeys: [String]) -> Bool {
        guard extras.count <= 16 else { return false }
        for (k, m) in extras.enumerated() {
            guard plainNonEmpty(m.key), !envelopeKeyList.contains(m.key), !ownKeys.contains(m.key),
                !extras[..<k].contains(where: { $0.key == m.key })
            else { return false }
            switch m.value {
            case .null, .bool: continue
            case .string(let s): guard plain(s) else { return false }
            // A number's canonical text reads back as the same number unless it is not a
            // JSON number at all (`nan`, `inf`): every JSON number ends with a digit.
            case .number(let n): guard let last = n.text.utf8.last, (0x30...0x39).contains(last) else { return false }
            case .array, .object: return false
            }
        }
        return true
    }
}

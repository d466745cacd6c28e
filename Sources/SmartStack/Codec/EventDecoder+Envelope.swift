public import RecordFormat

extension EventDecoder {
    /// Decodes an event whose envelope is given as a value and whose type's own fields are
    /// one JSON object (`{"kind":"w","duration":12}`), by the rules a whole line obeys: the
    /// envelope's values are checked as the line's keys would be, and the fields are decoded
    /// and checked against the envelope by the same code. An importer thus writes and
    /// decodes only the fields that differ from type to type.
    /// - Parameter checkedArtifact: the artifact hash the caller's last event named, once
    ///   checked (an importer's events all name the same one); updated.
    /// - Throws: `FieldError` naming the field and the problem (offsets are in `fields`).
    public mutating func decode(
        envelope: Envelope, fields: UnsafeRawBufferPointer, checkedArtifact: inout String?
    ) throws(FieldError) -> Event {
        guard let type = EventType.named(envelope.type) else {
            throw FieldError(
                offset: 0, field: "type",
                message: "\"\(envelope.type)\" is not an event type of the contract (see docs/events.md)")
        }
        try Self.check(envelope, type, checkedArtifact: &checkedArtifact)
        let event = try decodeJSON(fields) { r throws(FieldError) in
            guard r.token(0).kind == .object else {
                throw FieldError(offset: 0, field: "", message: "the fields are JSON but not an object")
            }
            var f = try ObjectFields(r, 0)
            return try EventDecoder.finish(type, envelope, &f)
        }
        // An envelope key among the fields would be kept as an unknown key.
        if let member = event.extras.first(where: { Self.envelopeKeys.contains($0.key) }) {
            throw FieldError(
                offset: 0, field: member.key, message: "is the envelope's, given apart from the type's fields")
        }
        return event
    }

    /// The keys of a line's envelope.
    static let envelopeKeys: Set<String> = ["type", "time", "device", "app", "id", "source"]

    /// The checks a line's envelope keys get, on an envelope given as a value.
    static func check(
        _ envelope: Envelope, _ type: EventType, checkedArtifact: inout String?
    ) throws(FieldError) {
        func fail(_ field: String, _ message: String) -> FieldError {
            FieldError(offset: 0, field: field, message: message)
        }
        let time = envelope.time
        guard Timestamp.isStorable(microseconds: time.microseconds, offsetMinutes: time.offsetMinutes) else {
            throw fail("time", "must lie within 1970-2200, with an offset under 24 hours")
        }
        guard !envelope.device.isEmpty else { throw fail("device", "must not be empty") }
        if let app = envelope.app, app.isEmpty { throw fail("app", "must not be empty") }
        if type.requiresApp && envelope.app == nil { throw fail("app", "is required for \(envelope.type)") }
        if let id = envelope.id, id.isEmpty { throw fail("id", "must not be empty") }
        // A line's strings pass its parser's limit; the same strings given as values do too.
        func limited(_ field: String, _ value: String?) throws(FieldError) {
            let limit = JSONTape.Limits().maximumStringBytes
            // Escaped, a byte takes at most six.
            guard let value, value.utf8.count > limit / 6, CanonicalWriter.escapedByteCount(value) > limit else {
                return
            }
            throw fail(field, "exceeds the limit of \(limit) bytes for a string (as JSON writes it)")
        }
        try limited("device", envelope.device)
        try limited("app", envelope.app)
        try limited("id", envelope.id)
        try limited("source.path", envelope.source?.path)
        try limited("source.stream", envelope.source?.stream)
        guard let source = envelope.source else { return }
        guard let artifact = source.artifact, artifact == checkedArtifact || isLowercaseHex(artifact, count: 64)
        else {
            throw fail("source.artifact", "must be the file's SHA-256 as 64 lowercase hex digits")
        }
        checkedArtifact = artifact
        guard source.path.map({ !$0.isEmpty }) ?? false else {
            throw fail("source.path", "source needs a non-empty path (the file's path inside the extraction)")
        }
        guard source.stream.map({ !$0.isEmpty }) ?? false else {
            throw fail(
                "source.stream", "source needs a non-empty stream (the Biome stream, knowledgeC stream or table)")
        }
        guard let locator = source.locatorJSON, Self.isLocator(locator) else {
            throw fail("source.locator", "must be a record offset (number) or row id (string)")
        }
        guard source.extraJSON == nil else {
            throw fail("source", "an importer's source holds artifact, path, stream and locator only")
        }
    }

    /// Whether `text` is a locator as a line holds it, canonical: a whole number written
    /// plainly (a record offset or row id), or a JSON string.
    private static func isLocator(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first else { return false }
            if first == UInt8(ascii: "\"") { return bytes.count >= 2 && bytes.last == UInt8(ascii: "\"") }
            let digits = first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
            return (1...19).contains(digits.count) && (digits[0] != UInt8(ascii: "0") || bytes.count == 1)
                && digits.allSatisfy { (0x30...0x39).contains($0) }
        }
    }
}

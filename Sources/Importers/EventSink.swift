public import Ledger
public import SmartStack

/// Collects the events an importer yields for one artifact: gives each its envelope (with
/// its `id` and `source`), writes the type's own fields as canonical JSON, and decodes them
/// with the decoder `ingest` uses, by the rules of a whole line, so an imported event obeys
/// every rule of the contract. The events are encoded for the store a batch at a time,
/// with the context's preparation.
public struct EventSink {
    /// The artifact being read.
    public let context: ArtifactContext
    /// The events so far, in the order yielded, but for those not yet prepared.
    private var spooled: SpooledEvents
    /// Events decoded and not yet prepared.
    private var pending: [Event] = []
    private let worker: BulkPreparation.Worker
    /// What event ids begin with, before the locator, by stream.
    private var idPrefixes: [String: String] = [:]
    /// Records whose content could not become an event: locator and reason.
    public private(set) var rejected: [(locator: Locator, reason: String)] = []
    /// Positions (offsets, row ids) of records that yielded an event or were rejected, while
    /// `tracksPositions`.
    public private(set) var accounted = Set<Int64>()
    /// Whether `accounted` is kept; a reader that counts its records' outcomes itself
    /// (by `outcomes`) turns it off.
    var tracksPositions = true
    /// How many events were yielded and records rejected.
    private(set) var outcomes = 0
    /// The events stay on this thread until prepared: repeated values can share a string.
    private var decoder = EventDecoder(sharingStrings: true)
    private var writer = CanonicalWriter(capacity: 1024)
    /// The artifact hash the decoder checked last.
    private var checkedArtifact: String?

    /// Creates a sink for `context`.
    public init(context: ArtifactContext) {
        self.context = context
        self.spooled = SpooledEvents(preparation: context.preparation, feed: context.feed)
        self.worker = context.preparation.makeWorker()
        pending.reserveCapacity(Self.batchSize)
    }

    /// How many events are prepared at a time.
    static let batchSize = 2048

    /// Every event yielded so far, in order. A sink whose events go to a feed must be
    /// flushed first (its pending events are published once).
    public var events: SpooledEvents {
        precondition(
            spooled.feed == nil || pending.isEmpty, "flush a sink that feeds a commit before taking its events")
        var all = spooled
        all.append(pending, worker: worker)
        return all
    }

    /// Prepares the events not yet prepared.
    mutating func flush() {
        spooled.append(pending, worker: worker)
        pending.removeAll(keepingCapacity: true)
    }

    /// Yields one event.
    ///
    /// - Parameters:
    ///   - type: the event type (`"app.foreground"`).
    ///   - time: the event's time.
    ///   - app: the bundle id, for app signals.
    ///   - stream: the Biome stream, knowledgeC stream or table.
    ///   - locator: the record's offset or row id.
    ///   - fields: writes the type's fields (keys and values) in contract order.
    /// - Returns: whether the event was valid; an invalid one is listed in `rejected`.
    @discardableResult
    public mutating func yield(
        _ type: String, time: Timestamp, app: String? = nil, stream: String, locator: Locator,
        fields: (inout CanonicalWriter) -> Void
    ) -> Bool {
        let envelope = envelope(type, time: time, app: app, stream: stream, locator: locator)
        writer.bytes.removeAll(keepingCapacity: true)
        writer.beginObject()
        fields(&writer)
        writer.endObject()
        var failure: FieldError?
        let event = writer.bytes.withUnsafeBytes { (fields) -> Event? in
            do throws(FieldError) {
                return try decoder.decode(envelope: envelope, fields: fields, checkedArtifact: &checkedArtifact)
            } catch {
                failure = error
                return nil
            }
        }
        guard let event else { return reject(failure, locator) }
        keep(event)
        return true
    }

    /// Yields one event given as its typed body and unknown fields, decoded by the same
    /// rules as one whose fields are written as JSON (`EventDecoder.decode(envelope:body:extras:checkedArtifact:)`).
    /// - Returns: whether the event was valid; an invalid one is listed in `rejected`.
    @discardableResult
    public mutating func yield(
        _ body: EventBody, time: Timestamp, app: String? = nil, stream: String, locator: Locator,
        extras: [JSONMember] = []
    ) -> Bool {
        let envelope = envelope(body.typeName, time: time, app: app, stream: stream, locator: locator)
        do throws(FieldError) {
            keep(try decoder.decode(envelope: envelope, body: body, extras: extras, checkedArtifact: &checkedArtifact))
            return true
        } catch {
            return reject(error, locator)
        }
    }

    /// The envelope of a record's event, with its id and source.
    private mutating func envelope(
        _ type: String, time: Timestamp, app: String?, stream: String, locator: Locator
    ) -> Envelope {
        outcomes += 1
        if tracksPositions { accounted.insert(locator.position) }
        let prefix: String
        if let known = idPrefixes[stream] {
            prefix = known
        } else {
            prefix = context.eventIDPrefix(stream: stream)
            if idPrefixes.count < 64 { idPrefixes[stream] = prefix }
        }
        let text = locator.text
        // A record offset is its digits; a locator with a part, a JSON string.
        let locatorJSON = locator.part == nil ? text : CanonicalWriter.text(of: .string(text))
        let source = Provenance(artifact: context.sha256, path: context.path, stream: stream, locatorJSON: locatorJSON)
        return Envelope(type: type, time: time, device: context.device, app: app, id: prefix + text, source: source)
    }

    /// Keeps a decoded event.
    private mutating func keep(_ event: consuming Event) {
        pending.append(event)
        if pending.count >= Self.batchSize { flush() }
    }

    /// Lists a record whose event could not be decoded as rejected; false.
    private mutating func reject(_ failure: FieldError?, _ locator: Locator) -> Bool {
        let error = failure ?? FieldError(offset: 0, field: "", message: "cannot be decoded")
        rejected.append((locator, "\(error.field.isEmpty ? "" : "field \(error.field): ")\(error.message)"))
        return false
    }

    /// Records that `locator` held something that cannot become an event.
    public mutating func reject(_ locator: Locator, _ reason: String) {
        outcomes += 1
        if tracksPositions { accounted.insert(locator.position) }
        rejected.append((locator, reason))
    }

    /// What a sink collected, to hand to another thread.
    public struct Contents: Sendable {
        var events: SpooledEvents
        var rejected: [(locator: Locator, reason: String)]
        var accounted: Set<Int64>
    }

    /// What this sink collected.
    public var contents: Contents { Contents(events: events, rejected: rejected, accounted: accounted) }

    /// Appends what another sink of the same artifact collected, after this one's.
    public mutating func append(_ other: Contents) {
        flush()
        spooled.append(contentsOf: other.events)
        rejected += other.rejected
        accounted.formUnion(other.accounted)
    }

    /// Records that the record at `position` went into an event yielded under another
    /// record's locator (one shortcut of a set).
    public mutating func merged(_ position: Int64) {
        accounted.insert(position)
    }
}

@available(*, unavailable)
extension EventSink: Sendable {}

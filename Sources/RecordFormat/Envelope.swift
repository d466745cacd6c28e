/// What every stored event carries besides its domain payload.
///
/// The ledger knows nothing of widgets: `type` is an opaque name and the payload is
/// bytes that the domain encodes and decodes.
public struct Envelope: Hashable, Sendable {
    /// The event type name, e.g. `"widget.timeline"`.
    public var type: String
    /// When it happened on the device (valid time).
    public var time: Timestamp
    /// Which device's log the event belongs to.
    public var device: String
    /// The bundle id of the app that produced the signal, if any.
    public var app: String?
    /// A client-chosen unique id; makes ingest idempotent.
    public var id: String?
    /// Where an imported event came from.
    public var source: Provenance?

    /// The device name used when an event names none.
    public static let defaultDevice = "default"

    /// Creates an envelope.
    public init(
        type: String, time: Timestamp, device: String = Envelope.defaultDevice,
        app: String? = nil, id: String? = nil, source: Provenance? = nil
    ) {
        self.type = type
        self.time = time
        self.device = device
        self.app = app
        self.id = id
        self.source = source
    }
}

/// The provenance of an imported event: the artifact's hash, its path in the extraction,
/// the stream or table, and the record's locator.
public struct Provenance: Hashable, Sendable {
    /// SHA-256 of the artifact file, as hex.
    public var artifact: String?
    /// The path inside the extraction.
    public var path: String?
    /// The Biome stream, knowledgeC stream or table.
    public var stream: String?
    /// The record offset or row id, as its canonical JSON text (`1234` or `"0x1f"`).
    public var locatorJSON: String?
    /// Canonical JSON members (`"k":v,...`) of keys the contract does not name, kept as given.
    public var extraJSON: String?

    /// Creates a provenance.
    public init(
        artifact: String? = nil, path: String? = nil, stream: String? = nil,
        locatorJSON: String? = nil, extraJSON: String? = nil
    ) {
        self.artifact = artifact
        self.path = path
        self.stream = stream
        self.locatorJSON = locatorJSON
        self.extraJSON = extraJSON
    }
}

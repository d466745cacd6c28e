public import Ledger

/// What an importer knows about the artifact it reads: where it is, what it hashes to,
/// which device it belongs to.
public struct ArtifactContext: Sendable {
    /// SHA-256 of the file's bytes, lowercase hex.
    public var sha256: String
    /// The file's path inside the extraction (relative to `--root`), as `source.path` gives it.
    public var path: String
    /// The device the artifact belongs to (`--device`).
    public var device: String
    /// What encodes the events for the store as they are read: one per import run, so
    /// that its files' records can be stored as encoded.
    public var preparation: BulkPreparation
    /// Where the events go as they are prepared when the file is committed while it is
    /// read; nil to keep them until it is read whole.
    var feed: BatchFeed?

    /// The same context, its events kept until the file is read whole.
    var withoutFeed: ArtifactContext {
        var copy = self
        copy.feed = nil
        return copy
    }

    /// Creates a context.
    public init(
        sha256: String, path: String, device: String = Envelope.defaultDevice,
        preparation: BulkPreparation = BulkPreparation()
    ) {
        self.sha256 = sha256
        self.path = path
        self.device = device
        self.preparation = preparation
    }

    /// The event id for a record: the artifact's hash (first 16 hex digits), the stream and
    /// the record's locator. Importing the same file twice gives the same ids.
    public func eventID(stream: String, locator: Locator) -> String {
        eventIDPrefix(stream: stream) + locator.text
    }

    /// What the event ids of a stream's records begin with, before the locator.
    func eventIDPrefix(stream: String) -> String {
        "\(sha256.prefix(16))/\(stream)/"
    }
}

/// Where a record sits in its artifact: a byte offset or a row id, optionally with a part
/// name when one record yields several events (`"1184/departure"`).
public struct Locator: Sendable, Hashable {
    /// The record's byte offset or row id.
    public var position: Int64
    /// Which of the record's events, when it yields more than one.
    public var part: String?

    /// Creates a locator.
    public init(_ position: Int64, part: String? = nil) {
        self.position = position
        self.part = part
    }

    var text: String { part.map { "\(position)/\($0)" } ?? String(position) }
}

/// Seconds between 1970-01-01 and 2001-01-01, the Cocoa reference date.
let cocoaEpochOffset = 978_307_200.0

extension Timestamp {
    /// The instant `seconds` after 1970-01-01 UTC, written with `offsetSeconds` from UTC;
    /// nil when outside the contract's years 1970-2200 or not finite.
    static func unixSeconds(_ seconds: Double, offsetSeconds: Int = 0) -> Timestamp? {
        guard seconds.isFinite else { return nil }
        let micros = (seconds * 1_000_000).rounded()
        guard micros >= 0, micros < Double(Timestamp.limit.microseconds) else { return nil }
        guard abs(offsetSeconds) < 86_400 else { return nil }
        return Timestamp(microseconds: Int64(micros), offsetMinutes: Int16(offsetSeconds / 60))
    }

    /// The instant `seconds` after 2001-01-01 UTC (Cocoa time).
    static func cocoaSeconds(_ seconds: Double, offsetSeconds: Int = 0) -> Timestamp? {
        unixSeconds(seconds + cocoaEpochOffset, offsetSeconds: offsetSeconds)
    }
}

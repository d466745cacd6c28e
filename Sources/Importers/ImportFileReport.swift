/// What importing one artifact file did: what was read, what became events, what was not
/// and why.
public struct ImportFileReport: Sendable, Equatable {
    /// The file's path inside the extraction (`source.path`).
    public var path: String
    /// Where a link on the path leads, relative to the root, when the file was read
    /// through one.
    public var link: String?
    /// The Biome stream, or the knowledgeC streams / PowerLog tables read.
    public var stream: String?
    /// SHA-256 of the file.
    public var artifact: String?
    /// The container (`SEGB v1`, `SEGB v2`, `SQLite`).
    public var container: String?
    /// Records (or rows) read.
    public var recordsRead = 0
    /// Events yielded by the records.
    public var events = 0
    /// Events newly stored.
    public var imported = 0
    /// Events already in the store (same id and content): imported before.
    public var duplicates = 0
    /// Records marked deleted in the container (counted, never imported as facts).
    public var deleted = 0
    /// Empty slots.
    public var empty = 0
    /// Records read but yielding no event by design (a background transition folded into a
    /// duration, a stream StackLedger does not read).
    public var skipped = 0
    /// Records that failed: a CRC mismatch or content that cannot become an event.
    public var failed = 0
    /// The first and last event times (RFC 3339), when any.
    public var firstTime: String?
    public var lastTime: String?
    /// One line per failed record: its locator and the reason (at most 100 kept).
    public var problems: [String] = []
    /// Why the file could not be imported at all; nothing from it was stored.
    public var error: String?

    /// Creates an empty report for `path`.
    public init(path: String) { self.path = path }

    mutating func problem(_ text: String) {
        if problems.count < 100 { problems.append(text) }
    }
}

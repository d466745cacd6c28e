import Ledger
import SQLiteKit
import SmartStack

/// One ZOBJECT row of a stream the importer reads, with its source and metadata.
struct KnowledgeCRow {
    var pk: Int64
    var stream: String
    var valueString: String?
    var valueInteger: Int64?
    var start: Double?
    var end: Double?
    var created: Double?
    var secondsFromGMT: Int
    var bundleID: String?
    var groupID: String?
    var intentClass: String?
    var intentVerb: String?
    var derivedIntentID: String?
    var donatedBySiri: Int64?
    var serializedShortcut: [UInt8]?
    var custom: [(String, PlistValue)] = []
    /// A column that holds a value of the wrong kind (text in a date, a BLOB in a name),
    /// said in words: the row yields no event.
    var malformed: String?

    /// The rows of the streams read, in row order, handed over `chunkSize` at a time so that
    /// a large database is never held whole. Every row of ZOBJECT is counted by its stream
    /// (`(none)` for a row without one) in `counts`, read or not: one pass over the table.
    /// Rows of `customMetadataStreams` take theirs from `customMetadata`.
    static func fetch(
        _ db: SQLiteConnection, _ s: KnowledgeCSchema, chunkSize: Int = 16_384,
        customMetadata: CustomMetadata = CustomMetadata(), counts: inout [String: Int],
        _ body: ([KnowledgeCRow]) -> Void
    ) throws(SQLiteError) {
        let k = "Z_DKINTENTMETADATAKEY__"
        let r = "Z_DKRELEVANTSHORTCUTMETADATAKEY__"
        let metadataJoin =
            s.metadataColumns.contains("Z_PK") && s.objectColumns.contains("ZSTRUCTUREDMETADATA")
            ? "LEFT JOIN ZSTRUCTUREDMETADATA m ON o.ZSTRUCTUREDMETADATA = m.Z_PK" : ""
        let sourceJoin =
            s.sourceColumns.contains("Z_PK") && s.objectColumns.contains("ZSOURCE")
            ? "LEFT JOIN ZSOURCE s ON o.ZSOURCE = s.Z_PK" : ""
        let m = { (c: String) in metadataJoin.isEmpty ? "NULL" : s.metadata(c) }
        let src = { (c: String) in sourceJoin.isEmpty ? "NULL" : s.source(c) }
        // Rows of the streams not read are only counted: their other columns are not read.
        let sql = """
            SELECT o.Z_PK, o.ZSTREAMNAME, \(s.object("ZVALUESTRING")), \(s.object("ZVALUEINTEGER")),
                   o.ZSTARTDATE, \(s.object("ZENDDATE")), \(s.object("ZCREATIONDATE")), \(s.object("ZSECONDSFROMGMT")),
                   \(src("ZBUNDLEID")), \(src("ZGROUPID")),
                   \(m(k + "INTENTCLASS")), \(m(k + "INTENTVERB")), \(m(k + "DERIVEDINTENTIDENTIFIER")),
                   \(m(k + "DONATEDBYSIRI")), \(m(r + "SERIALIZEDRELEVANTSHORTCUT"))
            FROM ZOBJECT o \(metadataJoin) \(sourceJoin)
            ORDER BY o.Z_PK
            """
        let read = Set(KnowledgeCImporter.streams)
        // Values repeat from row to row (streams, apps, intent classes): each is made once.
        let cache = StringCache(capacity: 1024)
        var tally = StreamTally(reading: read)
        defer { tally.add(to: &counts) }
        var rows = [KnowledgeCRow]()
        rows.reserveCapacity(chunkSize)
        try db.query(sql) { row in
            let stream = row.text(1, cache: cache) ?? "(none)"
            guard let takesCustom = tally.count(stream) else { return }
            if rows.count >= chunkSize {
                body(rows)
                rows.removeAll(keepingCapacity: true)
            }
            let pk = row.int(0) ?? 0
            // Values of the wrong kind are noted as they are read; the message is made
            // only for a row that has one.
            var bad = false
            rows.append(
                KnowledgeCRow(
                    pk: pk, stream: stream, valueString: row.text(2, cache: cache, wrongKind: &bad),
                    valueInteger: row.int(3, wrongKind: &bad), start: row.double(4, wrongKind: &bad),
                    end: row.double(5, wrongKind: &bad), created: row.double(6, wrongKind: &bad),
                    secondsFromGMT: Int(row.int(7, wrongKind: &bad) ?? 0),
                    bundleID: row.text(8, cache: cache, wrongKind: &bad),
                    groupID: row.text(9, cache: cache, wrongKind: &bad),
                    intentClass: row.text(10, cache: cache, wrongKind: &bad),
                    intentVerb: row.text(11, cache: cache, wrongKind: &bad),
                    derivedIntentID: row.text(12, cache: nil, wrongKind: &bad),
                    donatedBySiri: row.int(13, wrongKind: &bad),
                    serializedShortcut: row.blob(14), custom: takesCustom ? customMetadata.values[pk] ?? [] : [],
                    malformed: bad
                        ? row.mismatch(KnowledgeCRow.columns) : takesCustom ? customMetadata.problems[pk] : nil))
        }
        if !rows.isEmpty { body(rows) }
    }

    /// The columns `fetch` reads after the row's Z_PK and stream, by place, name and kind.
    static let columns: [(Int32, String, SQLiteRow.Kind)] = [
        (2, "ZVALUESTRING", .text), (3, "ZVALUEINTEGER", .integer), (4, "ZSTARTDATE", .number),
        (5, "ZENDDATE", .number), (6, "ZCREATIONDATE", .number), (7, "ZSECONDSFROMGMT", .integer),
        (8, "ZSOURCE.ZBUNDLEID", .text), (9, "ZSOURCE.ZGROUPID", .text),
        (10, "Z_DKINTENTMETADATAKEY__INTENTCLASS", .text), (11, "Z_DKINTENTMETADATAKEY__INTENTVERB", .text),
        (12, "Z_DKINTENTMETADATAKEY__DERIVEDINTENTIDENTIFIER", .text),
        (13, "Z_DKINTENTMETADATAKEY__DONATEDBYSIRI", .integer),
    ]

    /// The streams whose rows take custom metadata (`extensionBundle`, `inStack`,
    /// `refreshReason`, ...).
    static let customMetadataStreams: Set<String> = ["/dasd/widgetView", "/dasd/widgetRefresh"]

    /// The custom metadata of the rows that have some, by the row's Z_PK.
    struct CustomMetadata {
        /// Each row's names and values, in the metadata's Z_PK order.
        var values: [Int64: [(String, PlistValue)]] = [:]
        /// The rows one of whose metadata holds a value of the wrong kind, with the first
        /// such value in words: they yield no event.
        var problems: [Int64: String] = [:]
    }

    /// A custom metadata value's name, its kind in words, and the test of that kind.
    typealias CustomKind = (name: String, kind: String, fits: @Sendable (PlistValue) -> Bool)

    /// The columns of a custom metadata row after the event's and its own Z_PK.
    static let customColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (2, "ZCUSTOMMETADATA.ZNAME", .text), (3, "ZCUSTOMMETADATA.ZSTRINGVALUE", .text),
        (4, "ZCUSTOMMETADATA.ZINTEGERVALUE", .integer), (5, "ZCUSTOMMETADATA.ZDOUBLEVALUE", .number),
    ]

    /// Custom metadata of every row that has some, by the row's Z_PK, in the metadata's
    /// Z_PK order. The rows of `customMetadataStreams` take theirs.
    static func customMetadata(_ db: SQLiteConnection, _ s: KnowledgeCSchema) throws(SQLiteError) -> CustomMetadata {
        guard let join = s.customMetadataJoin else { return CustomMetadata() }
        var out = [Int64: [(pk: Int64, name: String, value: PlistValue)]]()
        var problems = [Int64: String]()
        // Neither sorted nor joined with ZOBJECT by SQLite: a hash of a few lists is cheaper.
        let sql = """
            SELECT j.\(join.eventColumn), c.Z_PK, c.ZNAME, c.ZSTRINGVALUE, c.ZINTEGERVALUE, c.ZDOUBLEVALUE
            FROM \(join.table) j JOIN ZCUSTOMMETADATA c ON j.\(join.metadataColumn) = c.Z_PK
            """
        try db.query(sql) { row in
            guard let pk = row.int(0) else { return }
            if let problem = row.mismatch(customColumns) {
                if problems[pk] == nil { problems[pk] = "its custom metadata (Z_PK \(row.int(1) ?? 0)): \(problem)" }
                return
            }
            guard let name = row.text(2) else { return }
            let value: PlistValue =
                row.text(3).map(PlistValue.string) ?? row.int(4).map(PlistValue.integer) ?? row.double(5).map(
                    PlistValue.real) ?? .null
            out[pk, default: []].append((row.int(1) ?? 0, name, value))
        }
        let values = out.mapValues { list in
            (list.count > 1 ? list.sorted { $0.pk < $1.pk } : list).map { ($0.name, $0.value) }
        }
        return CustomMetadata(values: values, problems: problems)
    }

    /// Whether each custom metadata value named in `kinds` is absent or of its kind (said
    /// in words, and tested); if not, the row is rejected, saying which value holds what.
    func customFits(_ kinds: [CustomKind], _ sink: inout EventSink) -> Bool {
        for (name, kind, fits) in kinds {
            guard let value = custom(name), value != .null, !fits(value) else { continue }
            let held: String
            switch value {
            case .string(let s): held = SQLiteRow.quoted(s)
            case .integer(let i): held = String(i)
            case .real(let d): held = String(d)
            default: held = "a value of another kind"
            }
            sink.reject(locator, "\(stream) row: its custom metadata \(name) holds \(held), not \(kind)")
            return false
        }
        return true
    }

    var locator: Locator { Locator(pk) }

    func custom(_ name: String) -> PlistValue? { custom.first { $0.0 == name }?.1 }

    /// The instant of Cocoa time `cocoa` (the row's `column`) at the row's offset from UTC;
    /// nil, with the row rejected saying why, when there is none.
    func time(_ cocoa: Double?, _ sink: inout EventSink, column: String = "ZSTARTDATE") -> Timestamp? {
        guard abs(secondsFromGMT) < 86_400 else {
            sink.reject(
                locator, "\(stream) row: ZSECONDSFROMGMT \(secondsFromGMT) is not an offset from UTC (under a day)")
            return nil
        }
        guard let cocoa else {
            sink.reject(locator, "\(stream) row has no time (\(column) is NULL)")
            return nil
        }
        guard let t = Timestamp.cocoaSeconds(cocoa, offsetSeconds: secondsFromGMT) else {
            sink.reject(locator, "\(stream) row: \(column) \(cocoa) (seconds from 2001) is not a time within 1970-2200")
            return nil
        }
        return t
    }

    /// The time from start to end; nil when either is missing.
    var duration: Double? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// Whether the row ends before it starts; if so it is rejected, saying so.
    func endsBeforeStart(_ sink: inout EventSink) -> Bool {
        guard let start, let end, end < start else { return false }
        sink.reject(locator, "\(stream) row ends (ZENDDATE \(end)) before it starts (ZSTARTDATE \(start))")
        return true
    }
}

/// Counts rows by stream, and says whether each stream is read: a stream's rows are
/// recognised by the string's two words (the same object, from a cache, or the same short
/// string), so a row costs no hashing of its stream's name.
private struct StreamTally {
    private let reading: Set<String>
    /// Per stream: nil when it is not read, else whether its rows take custom metadata.
    private var entries: [(bits: (UInt64, UInt64), name: String, read: Bool?, count: Int)] = []
    /// Streams counted by name once `entries` is full.
    private var overflow: [String: Int] = [:]

    init(reading: Set<String>) { self.reading = reading }

    /// Counts a row of `stream`: nil when the stream is not read, else whether its rows
    /// take custom metadata.
    mutating func count(_ stream: String) -> Bool? {
        let bits = unsafeBitCast(stream, to: (UInt64, UInt64).self)
        for k in entries.indices where entries[k].bits == bits {
            entries[k].count += 1
            return entries[k].read
        }
        let read = reading.contains(stream) ? KnowledgeCRow.customMetadataStreams.contains(stream) : nil
        if entries.count < 64 {
            entries.append((bits, stream, read, 1))
        } else {
            overflow[stream, default: 0] += 1
        }
        return read
    }

    /// Adds the counts, by stream name, to `counts`.
    func add(to counts: inout [String: Int]) {
        for e in entries { counts[e.name, default: 0] += e.count }
        for (name, n) in overflow { counts[name, default: 0] += n }
    }
}

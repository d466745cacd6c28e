import Ledger
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

    /// The rows of the streams read, in row order, handed over `chunkSize` at a time so that
    /// a large database is never held whole.
    static func fetch(
        _ db: SQLiteDatabase, _ s: KnowledgeCSchema, chunkSize: Int = 16_384, _ body: ([KnowledgeCRow]) -> Void
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
        let list = KnowledgeCImporter.streams.map { "'\($0)'" }.joined(separator: ",")
        let sql = """
            SELECT o.Z_PK, o.ZSTREAMNAME, \(s.object("ZVALUESTRING")), \(s.object("ZVALUEINTEGER")),
                   o.ZSTARTDATE, \(s.object("ZENDDATE")), \(s.object("ZCREATIONDATE")), \(s.object("ZSECONDSFROMGMT")),
                   \(src("ZBUNDLEID")), \(src("ZGROUPID")),
                   \(m(k + "INTENTCLASS")), \(m(k + "INTENTVERB")), \(m(k + "DERIVEDINTENTIDENTIFIER")),
                   \(m(k + "DONATEDBYSIRI")), \(m(r + "SERIALIZEDRELEVANTSHORTCUT"))
            FROM ZOBJECT o \(metadataJoin) \(sourceJoin)
            WHERE o.ZSTREAMNAME IN (\(list))
            ORDER BY o.Z_PK
            """
        var rows = [KnowledgeCRow]()
        rows.reserveCapacity(chunkSize)
        try db.query(sql) { row in
            if rows.count >= chunkSize {
                body(rows)
                rows.removeAll(keepingCapacity: true)
            }
            rows.append(
                KnowledgeCRow(
                    pk: row.int(0) ?? 0, stream: row.text(1) ?? "", valueString: row.text(2), valueInteger: row.int(3),
                    start: row.double(4), end: row.double(5), created: row.double(6),
                    secondsFromGMT: Int(row.int(7) ?? 0),
                    bundleID: row.text(8), groupID: row.text(9), intentClass: row.text(10), intentVerb: row.text(11),
                    derivedIntentID: row.text(12), donatedBySiri: row.int(13), serializedShortcut: row.blob(14)))
        }
        if !rows.isEmpty { body(rows) }
    }

    /// Custom metadata (`extensionBundle`, `inStack`, `refreshReason`, ...) of the widget rows.
    static func customMetadata(_ db: SQLiteDatabase, _ s: KnowledgeCSchema) throws(SQLiteError)
        -> [Int64: [(String, PlistValue)]]
    {
        guard let join = s.customMetadataJoin else { return [:] }
        var out = [Int64: [(String, PlistValue)]]()
        let sql = """
            SELECT j.\(join.eventColumn), c.ZNAME, c.ZSTRINGVALUE, c.ZINTEGERVALUE, c.ZDOUBLEVALUE
            FROM \(join.table) j JOIN ZCUSTOMMETADATA c ON j.\(join.metadataColumn) = c.Z_PK
            JOIN ZOBJECT o ON o.Z_PK = j.\(join.eventColumn)
            WHERE o.ZSTREAMNAME IN ('/dasd/widgetView', '/dasd/widgetRefresh')
            ORDER BY j.\(join.eventColumn), c.Z_PK
            """
        try db.query(sql) { row in
            guard let pk = row.int(0), let name = row.text(1) else { return }
            let value: PlistValue =
                row.text(2).map(PlistValue.string) ?? row.int(3).map(PlistValue.integer) ?? row.double(4).map(
                    PlistValue.real) ?? .null
            out[pk, default: []].append((name, value))
        }
        return out
    }

    var locator: Locator { Locator(pk) }

    func custom(_ name: String) -> PlistValue? { custom.first { $0.0 == name }?.1 }

    func time(_ cocoa: Double?, _ sink: inout EventSink) -> Timestamp? {
        guard let cocoa, let t = Timestamp.cocoaSeconds(cocoa, offsetSeconds: secondsFromGMT) else {
            sink.reject(locator, "\(stream) row has no valid start time (ZSTARTDATE)")
            return nil
        }
        return t
    }

    var duration: Double? {
        guard let start, let end, end >= start else { return nil }
        return end - start
    }
}

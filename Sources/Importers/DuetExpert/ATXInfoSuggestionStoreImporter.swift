import Ledger
import SQLiteKit
import SmartStack

/// Reads duetexpertd's `_ATXInfoSuggestionStore.db` (forensic-sources.md §10c), without
/// writing to it: the device's own records of its Smart Stack decisions and of widgets'
/// relevance.
///
/// - `proactiveStackRotations` → `stack.rotated` (`criterion`, `staleness`)
/// - `timelineDonations` → `widget.relevanceObserved`
/// - `widgetEngagements` → `widget.tapped` (type 1) / `widget.viewed` (type 2)
/// - `suggestedWidgets` → `suggestion.observed` (the kind from the same widget's engagements)
/// - `widgetReloadForSuggestion` → `widget.reloaded` (reason `suggestedWidget`), when the
///   record names the app
/// - `widgetSuggestionDismiss` → `suggestion.dismissed`, named by extension and kind (the
///   record holds neither the stack nor the instance)
///
/// Every other table is listed in the report with its row count. Times are Cocoa seconds.
public enum ATXInfoSuggestionStoreImporter {
    /// The tables read.
    static let tables = [
        "proactiveStackRotations", "timelineDonations", "widgetEngagements", "suggestedWidgets",
        "widgetReloadForSuggestion", "widgetSuggestionDismiss",
    ]

    /// Reads the database at `path`.
    public static func read(path: String, context: ArtifactContext) -> ArtifactImport {
        var report = ImportFileReport(path: context.path)
        report.container = "SQLite"
        let evidence: EvidenceDatabase
        let present: Set<String>
        do {
            evidence = try EvidenceDatabase(path: path)
            present = try evidence.database.tableNames()
        } catch let error as ImportError {
            return .failure(report, error.message)
        } catch {
            return .failure(report, "cannot read its schema: \(error)")
        }
        report.artifact = evidence.sha256
        if let recovery = evidence.recovery { report.problem(recovery) }
        let read = tables.filter(present.contains)
        guard !read.isEmpty else {
            return .failure(
                report,
                "has none of the Duet expert tables (proactiveStackRotations, timelineDonations, ...); it is not an _ATXInfoSuggestionStore.db this importer reads"
            )
        }
        report.stream = read.joined(separator: ",")
        var context = context
        context.sha256 = evidence.sha256
        var sink = EventSink(context: context)
        let db = evidence.database
        do {
            for table in present.subtracting(tables).sorted() where !table.hasPrefix("sqlite_") {
                var rows: Int64 = 0
                try db.query("SELECT COUNT(*) FROM \"\(table)\"") { rows = $0.int(0) ?? 0 }
                if rows > 0 { report.problem("table \(table): \(rows) rows, not read") }
            }
            // Kinds and extensions of widgets by their unique id, for suggestedWidgets.
            var known = [String: (ext: String?, kind: String, app: String?)]()
            if present.contains("widgetEngagements") {
                let c = try columns(db, "widgetEngagements")
                try db.query(
                    "SELECT rowid, \(c("widgetUniqueId")), \(c("extensionBundleId")), \(c("widgetKind")), \(c("date")), \(c("engagementType")), \(c("containerBundleIdentifier")), \(c("size")) FROM widgetEngagements ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    engagement(row, &sink, &known)
                }
            }
            if present.contains("proactiveStackRotations") {
                let c = try columns(db, "proactiveStackRotations")
                try db.query(
                    "SELECT rowid, \(c("rotationTimestamp")), \(c("widgetBundleId")), \(c("widgetKind")), \(c("criterion")), \(c("isStalenessRotation")), \(c("suggestionId")), \(c("intentHash")) FROM proactiveStackRotations ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    rotation(row, &sink)
                }
            }
            if present.contains("timelineDonations") {
                let c = try columns(db, "timelineDonations")
                try db.query(
                    "SELECT rowid, \(c("timestamp")), \(c("extensionBundleId")), \(c("containerBundleIdentifier")), \(c("widgetKind")), \(c("widgetFamily")), \(c("intentHash")), \(c("score")), \(c("duration")) FROM timelineDonations ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    donation(row, &sink)
                }
            }
            if present.contains("suggestedWidgets") {
                let c = try columns(db, "suggestedWidgets")
                try db.query(
                    "SELECT rowid, \(c("firstAppearDate")), \(c("widgetUniqueId")) FROM suggestedWidgets ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    suggested(row, &sink, known)
                }
            }
            if present.contains("widgetReloadForSuggestion") {
                let c = try columns(db, "widgetReloadForSuggestion")
                try db.query(
                    "SELECT rowid, \(c("timestamp")), \(c("extensionBundleId")), \(c("kind")), \(c("family")), \(c("readyForDisplay")), \(c("containerBundleIdentifier")) FROM widgetReloadForSuggestion ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    reload(row, &sink)
                }
            }
            if present.contains("widgetSuggestionDismiss") {
                let c = try columns(db, "widgetSuggestionDismiss")
                try db.query(
                    "SELECT rowid, \(c("date")), \(c("extensionBundleId")), \(c("kind")), \(c("intentHash")), \(c("duration")) FROM widgetSuggestionDismiss ORDER BY rowid"
                ) { row in
                    report.recordsRead += 1
                    dismissal(row, &sink)
                }
            }
            try evidence.verifyUnchanged()
        } catch let e as ImportError {
            return .failure(report, e.message)
        } catch {
            return .failure(report, "cannot be queried: \(error); nothing from this file was imported")
        }
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        return result
    }

    /// A column's quoted name, or NULL when the table lacks it (schemas differ by version).
    private static func columns(_ db: SQLiteConnection, _ table: String) throws -> (String) -> String {
        let names = Set(try db.columns(of: table))
        return { names.contains($0) ? "\"\($0)\"" : "NULL" }
    }

    private static func time(
        _ row: SQLiteRow, _ column: Int32, _ locator: Locator, _ table: String, _ sink: inout EventSink
    )
        -> Timestamp?
    {
        guard let seconds = row.double(column), let t = Timestamp.cocoaSeconds(seconds) else {
            sink.reject(locator, "\(table) row has no valid time")
            return nil
        }
        return t
    }

    private static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// The columns each table's query reads after its rowid, by place, name and kind.
    private static let engagementColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "widgetUniqueId", .text), (2, "extensionBundleId", .text), (3, "widgetKind", .text), (4, "date", .number),
        (5, "engagementType", .integer), (6, "containerBundleIdentifier", .text), (7, "size", .integer),
    ]
    private static let rotationColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "rotationTimestamp", .number), (2, "widgetBundleId", .text), (3, "widgetKind", .text),
        (4, "criterion", .integerOrText), (5, "isStalenessRotation", .integer), (6, "suggestionId", .text),
        (7, "intentHash", .integerOrText),
    ]
    private static let donationColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "timestamp", .number), (2, "extensionBundleId", .text), (3, "containerBundleIdentifier", .text),
        (4, "widgetKind", .text), (5, "widgetFamily", .integerOrText), (6, "intentHash", .integerOrText),
        (7, "score", .number), (8, "duration", .number),
    ]
    private static let suggestedColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "firstAppearDate", .number), (2, "widgetUniqueId", .text),
    ]
    private static let reloadColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "timestamp", .number), (2, "extensionBundleId", .text), (3, "kind", .text), (4, "family", .integerOrText),
        (5, "readyForDisplay", .integer), (6, "containerBundleIdentifier", .text),
    ]
    private static let dismissalColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "date", .number), (2, "extensionBundleId", .text), (3, "kind", .text), (4, "intentHash", .integerOrText),
        (5, "duration", .number),
    ]

    private static func engagement(
        _ row: SQLiteRow, _ sink: inout EventSink, _ known: inout [String: (ext: String?, kind: String, app: String?)]
    ) {
        let table = "widgetEngagements"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(engagementColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        let id = nonEmpty(row.text(1))
        let ext = nonEmpty(row.text(2))
        let app = nonEmpty(row.text(6))
        guard let kind = nonEmpty(row.text(3)) else {
            sink.reject(locator, "\(table) row names no widgetKind")
            return
        }
        if let id { known[id] = (ext, kind, app) }
        guard let t = time(row, 4, locator, table, &sink) else { return }
        let type: String
        switch row.int(5) {
        case 1?: type = "widget.tapped"
        case 2?: type = "widget.viewed"
        default:
            sink.reject(
                locator,
                "\(table) row has engagementType \(row.int(5).map(String.init) ?? "NULL"); 1 (tap) and 2 (dwell) are read"
            )
            return
        }
        guard id != nil || app != nil else {
            sink.reject(
                locator, "\(table) row names its widget by neither widgetUniqueId nor containerBundleIdentifier")
            return
        }
        sink.yield(type, time: t, app: app, stream: table, locator: locator) { w in
            w.optionalString("instance", id)
            w.key("kind")
            w.string(kind)
            w.optionalString("extension", ext)
            if let size = row.int(7) {
                w.key("size")
                w.integer(Int(size))
            }
        }
    }

    private static func rotation(_ row: SQLiteRow, _ sink: inout EventSink) {
        let table = "proactiveStackRotations"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(rotationColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        guard let kind = nonEmpty(row.text(3)), let ext = nonEmpty(row.text(2)) else {
            sink.reject(locator, "\(table) row names no widget (widgetBundleId and widgetKind)")
            return
        }
        guard let t = time(row, 1, locator, table, &sink) else { return }
        sink.yield("stack.rotated", time: t, stream: table, locator: locator) { w in
            w.key("extension")
            w.string(ext)
            w.key("kind")
            w.string(kind)
            w.optionalString("criterion", row.integerOrText(4))
            if let staleness = row.int(5) {
                w.key("staleness")
                w.bool(staleness != 0)
            }
            w.optionalString("suggestionId", nonEmpty(row.text(6)))
            w.optionalString("intentHash", row.integerOrText(7))
        }
    }

    private static func donation(_ row: SQLiteRow, _ sink: inout EventSink) {
        let table = "timelineDonations"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(donationColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        let ext = nonEmpty(row.text(2))
        let app = nonEmpty(row.text(3))
        guard let kind = nonEmpty(row.text(4)), ext != nil || app != nil else {
            sink.reject(
                locator, "\(table) row names no widget (extensionBundleId or containerBundleIdentifier, and widgetKind)"
            )
            return
        }
        guard let t = time(row, 1, locator, table, &sink) else { return }
        sink.yield("widget.relevanceObserved", time: t, app: app, stream: table, locator: locator) { w in
            w.optionalString("extension", ext)
            w.key("kind")
            w.string(kind)
            w.optionalString("family", row.integerOrText(5))
            w.optionalString("intentHash", row.integerOrText(6))
            w.key("date")
            w.time(t)
            w.key("relevance")
            if let score = row.double(7) {
                w.beginObject()
                w.key("score")
                w.number(score)
                w.key("duration")
                w.number(max(0, row.double(8) ?? 0))
                w.endObject()
            } else {
                w.null()
            }
        }
    }

    private static func suggested(
        _ row: SQLiteRow, _ sink: inout EventSink, _ known: [String: (ext: String?, kind: String, app: String?)]
    ) {
        let table = "suggestedWidgets"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(suggestedColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        guard let id = nonEmpty(row.text(2)) else {
            sink.reject(locator, "\(table) row has no widgetUniqueId")
            return
        }
        guard let widget = known[id], widget.ext != nil || widget.app != nil else {
            sink.reject(
                locator,
                "\(table) row \(id): no widgetEngagements row names this widget's kind and bundle; not guessed")
            return
        }
        guard let t = time(row, 1, locator, table, &sink) else { return }
        sink.yield("suggestion.observed", time: t, app: widget.app, stream: table, locator: locator) { w in
            w.key("instance")
            w.string(id)
            w.optionalString("extension", widget.ext)
            w.key("kind")
            w.string(widget.kind)
        }
    }

    private static func reload(_ row: SQLiteRow, _ sink: inout EventSink) {
        let table = "widgetReloadForSuggestion"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(reloadColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        guard let kind = nonEmpty(row.text(3)) else {
            sink.reject(locator, "\(table) row names no kind")
            return
        }
        guard let app = nonEmpty(row.text(6)) else {
            sink.reject(locator, "\(table) row names no app (only the extension); widget.reloaded needs the app")
            return
        }
        guard let t = time(row, 1, locator, table, &sink) else { return }
        sink.yield("widget.reloaded", time: t, app: app, stream: table, locator: locator) { w in
            w.key("kind")
            w.string(kind)
            w.key("reason")
            w.string("suggestedWidget")
            w.optionalString("extension", nonEmpty(row.text(2)))
        }
    }

    private static func dismissal(_ row: SQLiteRow, _ sink: inout EventSink) {
        let table = "widgetSuggestionDismiss"
        let locator = Locator(row.int(0) ?? 0)
        guard row.fits(dismissalColumns, rejectingAt: locator, of: table, into: &sink) else { return }
        guard let kind = nonEmpty(row.text(3)), let ext = nonEmpty(row.text(2)) else {
            sink.reject(locator, "\(table) row names no widget (extensionBundleId and kind)")
            return
        }
        guard let t = time(row, 1, locator, table, &sink) else { return }
        sink.yield("suggestion.dismissed", time: t, stream: table, locator: locator) { w in
            w.key("extension")
            w.string(ext)
            w.key("kind")
            w.string(kind)
            w.optionalString("intentHash", row.integerOrText(4))
            if let duration = row.double(5) {
                w.key("recordedDuration")
                w.number(max(0, duration))
            }
        }
    }
}

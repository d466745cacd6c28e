import Ledger
import SQLiteKit
import SmartStack

/// Reads a PowerLog database (`CurrentPowerlog.PLSQL`) into events, without writing to it.
///
/// - `PLApplicationAgent_EventBackward_WidgetStats` → `stack.observed`: the device's own
///   record of a widget's time on screen (ground truth for `why`).
/// - `PLApplicationAgent_EventPoint_WidgetUpdates` → `widget.reloaded` (with the budget).
/// - `PLApplicationAgent_EventPoint_SuggestedWidgetReload` → `widget.reloaded`
///   (reason `suggestedWidget`).
public enum PowerLogImporter {
    static let widgetStats = "PLApplicationAgent_EventBackward_WidgetStats"
    static let widgetUpdates = "PLApplicationAgent_EventPoint_WidgetUpdates"
    static let suggestedReload = "PLApplicationAgent_EventPoint_SuggestedWidgetReload"

    /// How to read.
    public struct Options: Sendable {
        /// Leaves stacks uninferred (an extraction whose layout file records them).
        public var skipsInference = false

        /// Creates options.
        public init() {}
    }

    /// Reads the database at `path`.
    public static func read(path: String, context: ArtifactContext, options: Options = Options()) -> ArtifactImport {
        var report = ImportFileReport(path: context.path)
        report.container = "SQLite"
        let evidence: EvidenceDatabase
        let tables: Set<String>
        do {
            evidence = try EvidenceDatabase(path: path)
        } catch {
            return .failure(report, error.message)
        }
        report.artifact = evidence.sha256
        if let recovery = evidence.recovery { report.problem(recovery) }
        do {
            tables = try evidence.database.tableNames()
        } catch {
            return .failure(report, "cannot read its schema: \(error)")
        }
        let present = [widgetStats, widgetUpdates, suggestedReload].filter(tables.contains)
        guard !present.isEmpty else {
            return .failure(
                report,
                "has none of the PowerLog widget tables (\(widgetStats), ...); it is not a PowerLog database this importer reads"
            )
        }
        report.stream = present.joined(separator: ",")
        var context = context
        context.sha256 = evidence.sha256
        var sink = EventSink(context: context)
        var rowIDs = [(String, Int64)]()
        var inStack = [PowerLogStackInference.Row]()
        do {
            for table in present {
                let columns = Set(try evidence.database.columns(of: table))
                let c = { (name: String) in columns.contains(name) ? "\"\(name)\"" : "NULL" }
                switch table {
                case widgetStats:
                    let sql =
                        "SELECT ID, timestamp, \(c("bundleID")), \(c("kind")), \(c("isInStack")), \(c("totalTimeSpentOnScreen")), \(c("identifier")), \(c("size")), \(c("location")), \(c("page")), \(c("suggestionIdentifier")) FROM \(table) ORDER BY ID"
                    try evidence.database.query(sql) { row in
                        rowIDs.append((table, row.int(0) ?? 0))
                        guard row.fits(statsColumns, rejectingAt: Locator(row.int(0) ?? 0), of: table, into: &sink)
                        else { return }
                        observed(row, table, &sink)
                        if row.int(4) == 1, let bundle = row.text(2), let kind = row.text(3), !bundle.isEmpty,
                            !kind.isEmpty, let seconds = row.double(5), let t = row.double(1),
                            let time = Timestamp.unixSeconds(t)
                        {
                            inStack.append(
                                PowerLogStackInference.Row(
                                    locator: row.int(0) ?? 0, time: time.microseconds, seconds: seconds, bundle: bundle,
                                    kind: kind, identifier: row.text(6).flatMap { $0.isEmpty ? nil : $0 },
                                    size: row.int(7), location: row.int(8), page: row.int(9)))
                        }
                    }
                default:
                    let sql =
                        "SELECT ID, timestamp, \(c("bundleID")), \(c("kind")), \(c("reason")), \(c("remainingBudget")), \(c("cost")), \(c("identifier")), \(c("size")), \(c("suggestionIdentifier")) FROM \(table) ORDER BY ID"
                    try evidence.database.query(sql) { row in
                        rowIDs.append((table, row.int(0) ?? 0))
                        guard row.fits(reloadColumns, rejectingAt: Locator(row.int(0) ?? 0), of: table, into: &sink)
                        else { return }
                        reloaded(row, table, &sink)
                    }
                }
            }
            try evidence.verifyUnchanged()
        } catch let e as ImportError {
            return .failure(report, e.message)
        } catch {
            return .failure(report, "cannot be queried: \(error); nothing from this file was imported")
        }
        report.recordsRead = rowIDs.count
        if !inStack.isEmpty && !options.skipsInference {
            let inference = PowerLogStackInference(rows: inStack)
            inferredLayout(inference, &sink)
            for line in inference.notInferred { report.problem(line) }
            for stack in inference.stacks {
                report.problem(
                    "inferred stack \(stack.id) of \(stack.members.map(\.kind).joined(separator: ", ")) from \(stack.rows.count) rows (method inferred; answers resting on it list LAYOUT_INFERRED)"
                )
            }
        }
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        return result
    }

    /// The columns of a WidgetStats row after its ID, by place, name and kind.
    private static let statsColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "timestamp", .number), (2, "bundleID", .text), (3, "kind", .text), (4, "isInStack", .integer),
        (5, "totalTimeSpentOnScreen", .number), (6, "identifier", .text), (7, "size", .integer),
        (8, "location", .integer), (9, "page", .integer), (10, "suggestionIdentifier", .text),
    ]
    /// The columns of a WidgetUpdates or SuggestedWidgetReload row after its ID.
    private static let reloadColumns: [(Int32, String, SQLiteRow.Kind)] = [
        (1, "timestamp", .number), (2, "bundleID", .text), (3, "kind", .text), (4, "reason", .integer),
        (5, "remainingBudget", .number), (6, "cost", .integer), (7, "identifier", .text), (8, "size", .integer),
        (9, "suggestionIdentifier", .text),
    ]

    private static func time(_ row: SQLiteRow, _ locator: Locator, _ table: String, _ sink: inout EventSink)
        -> Timestamp?
    {
        guard let seconds = row.double(1), let t = Timestamp.unixSeconds(seconds) else {
            sink.reject(locator, "\(table) row has no valid timestamp")
            return nil
        }
        return t
    }

    /// A widget row's row id, bundle id, kind and time; nil (and the row rejected) when it
    /// names no widget or has no valid time.
    private static func widget(_ row: SQLiteRow, _ table: String, _ sink: inout EventSink) -> (
        Locator, String, String, Timestamp
    )? {
        let locator = Locator(row.int(0) ?? 0)
        guard let app = row.text(2), !app.isEmpty, let kind = row.text(3), !kind.isEmpty else {
            sink.reject(locator, "\(table) row names no widget (bundleID and kind)")
            return nil
        }
        guard let t = time(row, locator, table, &sink) else { return nil }
        return (locator, app, kind, t)
    }

    private static func observed(_ row: SQLiteRow, _ table: String, _ sink: inout EventSink) {
        guard let (locator, app, kind, t) = widget(row, table, &sink) else { return }
        let seconds = row.double(5) ?? 0
        let inStack = row.int(4)
        let identifier = row.text(6)
        let size = row.int(7)
        let place = row.int(8)
        let page = row.int(9)
        let suggestion = row.text(10)
        sink.yield("stack.observed", time: t, app: app, stream: table, locator: locator) { w in
            w.key("kind")
            w.string(kind)
            w.key("onScreen")
            w.bool(seconds > 0)
            if seconds > 0 {
                w.key("duration")
                w.number(seconds)
            }
            if let inStack {
                w.key("inStack")
                w.bool(inStack != 0)
                // Every member of a stack on screen gets the same row: it says the stack
                // was on screen, not which member was on top (docs/events.md, "Device records").
                w.key("scope")
                w.string(inStack != 0 ? StackObserved.Scope.stack.rawValue : StackObserved.Scope.top.rawValue)
            }
            if let identifier, !identifier.isEmpty {
                w.key("widgetIdentifier")
                w.string(identifier)
            }
            if let size {
                w.key("size")
                w.integer(Int(size))
            }
            if let place {
                w.key("location")
                w.integer(Int(place))
            }
            if let page {
                w.key("page")
                w.integer(Int(page))
            }
            if let suggestion, !suggestion.isEmpty {
                w.key("suggestionIdentifier")
                w.string(suggestion)
            }
        }
    }

    private static func reloaded(_ row: SQLiteRow, _ table: String, _ sink: inout EventSink) {
        guard let (locator, app, kind, t) = widget(row, table, &sink) else { return }
        let reason = table == suggestedReload ? "suggestedWidget" : row.int(4).map { "powerlog:\($0)" }
        let budget = row.double(5)
        let cost = row.int(6)
        let identifier = row.text(7)
        let size = row.int(8)
        let suggestion = row.text(9)
        sink.yield("widget.reloaded", time: t, app: app, stream: table, locator: locator) { w in
            w.key("kind")
            w.string(kind)
            if let reason {
                w.key("reason")
                w.string(reason)
            }
            if let budget {
                w.key("budgetRemaining")
                w.number(budget)
            }
            if let cost {
                w.key("cost")
                w.integer(Int(cost))
            }
            if let identifier, !identifier.isEmpty {
                w.key("widgetIdentifier")
                w.string(identifier)
            }
            if let size {
                w.key("size")
                w.integer(Int(size))
            }
            if let suggestion, !suggestion.isEmpty {
                w.key("suggestionIdentifier")
                w.string(suggestion)
            }
        }
    }

    /// WidgetKit families by PowerLog's `size` (1 small, 2 medium, 3 large, 4 extra large:
    /// read from the sample's rows, where the small widgets report 1).
    static let families: [Int64: String] = [
        1: "systemSmall", 2: "systemMedium", 3: "systemLarge", 4: "systemExtraLarge",
    ]

    /// The stacks the rows support, as one inferred `stack.layoutObserved`.
    private static func inferredLayout(_ inference: PowerLogStackInference, _ sink: inout EventSink) {
        guard let from = inference.stacks.map(\.from).min() else { return }
        let artifact = sink.context.sha256
        sink.yield(
            EventType.layoutObserved.rawValue, time: Timestamp(microseconds: from), stream: widgetStats,
            locator: Locator(0, part: "inferred-layout")
        ) { w in
            w.key("layout")
            w.string("inferred:" + artifact)
            w.key("stacks")
            w.beginArray()
            for stack in inference.stacks {
                let family = stack.size.flatMap { families[$0] } ?? "systemMedium"
                // PowerLog records the extension's bundle id only: it stands in for the app.
                let members = stack.members.map {
                    HomeScreenLayout.Widget(
                        instance: $0.instance, app: $0.bundle, extensionBundle: $0.bundle, kind: $0.kind, family: family
                    )
                }
                let inferred = HomeScreenLayout.Stack(
                    id: stack.id, family: family, members: members, smartRotate: nil, widgetSuggestions: nil,
                    selected: nil, place: "PowerLog")
                IconStateImporter.write(inferred, platform: "iOS", &w)
            }
            w.endArray()
            w.key("method")
            w.string("inferred")
            w.key("complete")
            w.bool(false)
            w.key("inferredFromRows")
            w.beginArray()
            for row in inference.stacks.flatMap(\.rows).sorted() { w.integer(Int(row)) }
            w.endArray()
        }
    }
}

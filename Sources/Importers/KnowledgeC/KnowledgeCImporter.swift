import Dispatch
import Foundation
import Ledger
import SmartStack

/// Reads a knowledgeC.db (CoreDuet) into events, without writing to it.
public enum KnowledgeCImporter {
    /// The streams read, and the event each becomes.
    public static let streams = [
        "/app/intents", "/app/relevantShortcuts", "/widgets/viewed", "/dasd/widgetView",
        "/dasd/widgetRefresh", "/app/inFocus", "/app/usage", "/display/isBacklit", "/device/isLocked",
    ]

    /// Reads the database at `path`.
    /// - Returns: the events and the report; a file that cannot be opened as knowledgeC
    ///   returns no events and the reason in `report.error`.
    public static func read(path: String, context: ArtifactContext) -> ArtifactImport {
        var report = ImportFileReport(path: context.path)
        report.container = "SQLite"
        let evidence: EvidenceDatabase
        let schema: KnowledgeCSchema
        let customMetadata: KnowledgeCRow.CustomMetadata
        // The schema and the custom metadata are read while the file is hashed.
        let prepared: Result<(KnowledgeCSchema, KnowledgeCRow.CustomMetadata), any Error>
        do {
            (evidence, prepared) = try EvidenceDatabase.open(path: path) { database in
                let schema = try KnowledgeCSchema(database)
                return (schema, try KnowledgeCRow.customMetadata(database, schema))
            }
        } catch {
            return .failure(report, error.message)
        }
        report.artifact = evidence.sha256
        if let recovery = evidence.recovery { report.problem(recovery) }
        switch prepared {
        case .success(let prepared): (schema, customMetadata) = prepared
        case .failure(let error as ImportError): return .failure(report, error.message)
        case .failure(let error):
            return .failure(report, "cannot be queried: \(error); nothing from this file was imported")
        }
        var context = context
        context.sha256 = evidence.sha256
        let decoding = ChunkDecoding(sink: EventSink(context: context))
        var counts = [String: Int]()
        // Rows are read and turned into events a chunk at a time; relevant shortcuts form
        // sets across rows, so their rows are kept until the end.
        var shortcutRows = [KnowledgeCRow]()
        var skipped = 0
        do {
            try KnowledgeCRow.fetch(evidence.database, schema, customMetadata: customMetadata, counts: &counts) {
                chunk in
                var rows = chunk
                if rows.contains(where: { $0.stream == "/app/relevantShortcuts" }) {
                    shortcutRows += rows.filter { $0.stream == "/app/relevantShortcuts" }
                    rows.removeAll { $0.stream == "/app/relevantShortcuts" }
                }
                decoding.send(rows)
            }
        } catch {
            _ = decoding.finish()
            return .failure(report, "cannot be queried: \(error); nothing from this file was imported")
        }
        var sink: EventSink
        (sink, skipped) = decoding.finish()
        KnowledgeCRow.relevantShortcuts(shortcutRows, &sink)
        skipped += shortcutRows.filter { !sink.accounted.contains($0.pk) }.count
        report.recordsRead = counts.values.reduce(0, +)
        let read = counts.keys.filter(streams.contains).sorted()
        report.stream = read.joined(separator: ",")
        for (name, n) in counts.sorted(by: { $0.key < $1.key }) where !streams.contains(name) {
            report.skipped += n
            report.problem("\(name): \(n) rows of a stream StackLedger does not read")
        }
        do {
            try evidence.verifyUnchanged()
        } catch {
            return .failure(report, error.message)
        }
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        result.report.skipped += skipped
        return result
    }
}

/// Turns fetched chunks of rows into events on another thread, while the next chunk is
/// fetched: one chunk waits at most.
private final class ChunkDecoding: @unchecked Sendable {
    // Touched by the decoding thread only until `finish` has waited for it.
    private var sink: EventSink
    private var skipped = 0
    private let chunks = HandOff<[KnowledgeCRow]>(capacity: 1)
    private let done = DispatchSemaphore(value: 0)

    init(sink: EventSink) {
        self.sink = sink
        Thread { self.decodeAll() }.start()
    }

    private func decodeAll() {
        while let rows = chunks.receive().item {
            skipped += KnowledgeCRow.decode(rows, into: &sink)
        }
        done.signal()
    }

    func send(_ rows: [KnowledgeCRow]) { _ = chunks.send(rows) }

    /// Waits for every chunk sent; the sink and the count of rows that yielded nothing.
    func finish() -> (EventSink, Int) {
        chunks.finish()
        done.wait()
        return (sink, skipped)
    }
}

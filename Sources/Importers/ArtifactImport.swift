public import Ledger
public import SmartStack

/// The events read from one artifact file and the report on reading it, before anything
/// is stored.
public struct ArtifactImport: Sendable {
    /// The events, in the order the artifact yields them, prepared for the store.
    public var spooled: SpooledEvents
    /// What was read.
    public var report: ImportFileReport

    /// Creates a result.
    public init(events: [Event], report: ImportFileReport, preparation: BulkPreparation = BulkPreparation()) {
        self.spooled = SpooledEvents(events, preparation: preparation)
        self.report = report
    }

    /// Every event, decoded again (for a small file).
    public var events: [Event] { spooled.events }

    /// A file that could not be read: no events, the error in the report.
    static func failure(_ report: ImportFileReport, _ message: String) -> ArtifactImport {
        var r = report
        r.error = message
        return ArtifactImport(events: [], report: r)
    }

    /// Reads the file at `path` whole and hands it to `read`; a file that cannot be read
    /// fails with the reason, under `stream`.
    static func reading(
        path: String, context: ArtifactContext, stream: String, _ read: (ArtifactFile) -> ArtifactImport
    ) -> ArtifactImport {
        do {
            return read(try ArtifactFile(path: path))
        } catch {
            var report = ImportFileReport(path: context.path)
            report.stream = stream
            return .failure(report, error.message)
        }
    }

    /// Fills the report from the sink's events and rejections.
    mutating func take(_ sink: EventSink) {
        var sink = sink
        sink.flush()
        spooled = sink.events
        report.events = spooled.count
        report.failed += sink.rejected.count
        for (locator, reason) in sink.rejected { report.problem("\(locator.text): \(reason)") }
        report.firstTime = spooled.firstTime?.rfc3339
        report.lastTime = spooled.lastTime?.rfc3339
    }
}

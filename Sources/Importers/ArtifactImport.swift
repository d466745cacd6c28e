import Ledger
public import SmartStack

/// The events read from one artifact file and the report on reading it, before anything
/// is stored.
public struct ArtifactImport: Sendable {
    /// The events, in the order the artifact yields them.
    public var events: [Event]
    /// What was read.
    public var report: ImportFileReport

    /// Creates a result.
    public init(events: [Event], report: ImportFileReport) {
        self.events = events
        self.report = report
    }

    /// A file that could not be read: no events, the error in the report.
    static func failure(_ report: ImportFileReport, _ message: String) -> ArtifactImport {
        var r = report
        r.error = message
        return ArtifactImport(events: [], report: r)
    }

    /// Fills the report from the sink's events and rejections.
    mutating func take(_ sink: EventSink) {
        events = sink.events
        report.events = events.count
        report.failed += sink.rejected.count
        for (locator, reason) in sink.rejected { report.problem("\(locator.text): \(reason)") }
        if let first = events.min(by: { $0.envelope.time < $1.envelope.time }),
            let last = events.max(by: { $0.envelope.time < $1.envelope.time })
        {
            report.firstTime = first.envelope.time.rfc3339
            report.lastTime = last.envelope.time.rfc3339
        }
    }
}

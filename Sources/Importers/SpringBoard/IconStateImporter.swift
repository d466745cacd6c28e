public import Ledger
import SmartStack

/// Reads SpringBoard's `IconState.plist` (or `DesiredIconState.plist`) into one
/// `stack.layoutObserved` (forensic-sources.md §10a): every stack of widgets on every page
/// and in the Today view, with its members in order and the switches SpringBoard wrote,
/// and the single widgets outside any stack.
///
/// SpringBoard rewrites the file when the layout changes, so the event's time is the
/// file's modification time unless the caller gives one.
public enum IconStateImporter {
    /// The stream name in event ids and `source.stream`.
    static let stream = "SpringBoard.IconState"
    /// The names of the layout files SpringBoard writes.
    public static let fileNames: Set<String> = ["IconState.plist", "DesiredIconState.plist"]

    /// Reads the file at `path`.
    ///
    /// - Parameters:
    ///   - layoutTime: the layout's time; nil for the file's modification time.
    ///   - platform: the device's platform (`iOS` or `iPadOS`).
    /// - Returns: the event and the report; a file that is not an icon state returns no
    ///   events and the reason in `report.error`.
    ///   - evidenceSpan: the span the extraction's other evidence covers, when known: a
    ///     file time more than a year outside it is no layout time.
    public static func read(
        path: String, context: ArtifactContext, layoutTime: Timestamp?, platform: String = "iOS",
        evidenceSpan: ClosedRange<Int64>? = nil
    ) -> ArtifactImport {
        .reading(path: path, context: context, stream: stream) { file in
            read(
                file: file, context: context,
                time: LayoutTime(given: layoutTime, uncertain: false, evidenceSpan: evidenceSpan), platform: platform)
        }
    }

    /// Reads a layout file already in memory (an archive member), dated as `time` says.
    static func read(file: ArtifactFile, context: ArtifactContext, time: LayoutTime, platform: String)
        -> ArtifactImport
    {
        var report = ImportFileReport(path: context.path)
        report.stream = stream
        report.artifact = file.sha256
        let layout: HomeScreenLayout
        do {
            let (root, form) = try PropertyList.parse(file.bytes[...])
            report.container = form.rawValue
            layout = try HomeScreenLayout(root: root)
        } catch let error as WireFormatError {
            return .failure(report, "\(error.message) (byte \(error.offset)); nothing from this file was imported")
        } catch let error as IconStateError {
            return .failure(report, "\(error.message); nothing from this file was imported")
        } catch {
            return .failure(report, "\(error); nothing from this file was imported")
        }
        return layoutImport(
            layout, file: file, context: context, report: report, time: time, platform: platform,
            complete: layout.isComplete)
    }

    /// When a layout held: the time given (`--layout-time`), else the file's modification
    /// time, which an archive's clock gives (`uncertain`: answers resting on the layout list
    /// `LAYOUT_TIME_UNCERTAIN`).
    struct LayoutTime {
        var given: Timestamp?
        var uncertain: Bool
        /// The span the extraction's other evidence covers, in microseconds, when known.
        var evidenceSpan: ClosedRange<Int64>? = nil

        /// How far outside the evidence's span a file time may lie and still be a layout time.
        static let slackMicros: Int64 = 366 * 86_400_000_000

        /// The time of a layout read from `file`, or why the file's time is no layout time.
        func time(of file: ArtifactFile) -> Result<Timestamp, LayoutTimeRefusal> {
            if let given { return .success(given) }
            let t = Timestamp(microseconds: file.modified)
            guard file.modified > 0 else {
                return .failure(
                    LayoutTimeRefusal(
                        "its file time is \(file.modified == 0 ? "0 (1970-01-01T00:00:00Z)" : t.rfc3339), which is no time a layout held"
                    ))
            }
            if let span = evidenceSpan,
                file.modified < span.lowerBound - Self.slackMicros || file.modified > span.upperBound + Self.slackMicros
            {
                return .failure(
                    LayoutTimeRefusal(
                        "its file time, \(t.rfc3339), lies more than a year outside the span the extraction's other evidence covers (\(Timestamp(microseconds: span.lowerBound).rfc3339) to \(Timestamp(microseconds: span.upperBound).rfc3339))"
                    ))
            }
            return .success(t)
        }
    }

    /// Why a file's time cannot date the layout it holds.
    struct LayoutTimeRefusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The import of a layout read from `file`: one `stack.layoutObserved` (method
    /// `recorded`), and the report's counts and lines. Shared by every record of the home
    /// screen (IconState.plist, DesiredIconState.plist, HomeScreenPages).
    static func layoutImport(
        _ layout: HomeScreenLayout, file: ArtifactFile, context: ArtifactContext, report: ImportFileReport,
        time layoutTime: LayoutTime, platform: String, complete: Bool
    ) -> ArtifactImport {
        var report = report
        let time: Timestamp
        switch layoutTime.time(of: file) {
        case .success(let t): time = t
        case .failure(let refusal):
            return .failure(
                report,
                "\(refusal.message); nothing from this file was imported. Give the layout's time with --layout-time T to import it"
            )
        }
        report.recordsRead = layout.icons
        report.skipped = layout.otherElements.values.reduce(0, +)
        for (type, count) in layout.otherElements.sorted(by: { $0.key < $1.key }) {
            report.problem("\(count) \(type) element\(count == 1 ? "" : "s") (not a widget; not imported)")
        }
        for problem in layout.problems { report.problem(problem) }
        for note in layout.notes { report.problem(note) }
        report.failed += layout.problems.count
        let stream = report.stream ?? Self.stream
        var context = context
        context.sha256 = file.sha256
        var sink = EventSink(context: context)
        sink.yield(
            EventType.layoutObserved.rawValue, time: time, stream: stream,
            locator: Locator(0, part: "at-\(time.microseconds)")
        ) { w in
            w.key("layout")
            w.string("sha256:" + file.sha256)
            w.key("stacks")
            w.beginArray()
            for stack in layout.stacks { write(stack, platform: platform, &w) }
            w.endArray()
            w.key("widgets")
            w.beginArray()
            for widget in layout.widgets { write(widget, &w) }
            w.endArray()
            w.key("method")
            w.string("recorded")
            w.key("complete")
            w.bool(complete)
            if layoutTime.uncertain && layoutTime.given == nil {
                w.key(LayoutObserved.timeUncertainKey)
                w.bool(true)
            }
        }
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        return result
    }

    static func write(_ stack: HomeScreenLayout.Stack, platform: String, _ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("stack")
        w.string(stack.id)
        w.key("platform")
        w.string(platform)
        w.key("family")
        w.string(stack.family)
        w.key("members")
        w.beginArray()
        for member in stack.members { write(member, &w) }
        w.endArray()
        if let r = stack.smartRotate {
            w.key("smartRotate")
            w.bool(r)
        }
        if let s = stack.widgetSuggestions {
            w.key("widgetSuggestions")
            w.bool(s)
        }
        if let selected = stack.selected {
            w.key("selected")
            w.string(selected)
        }
        w.endObject()
    }

    static func write(_ widget: HomeScreenLayout.Widget, _ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("instance")
        w.string(widget.instance)
        w.key("app")
        w.string(widget.app)
        w.key("kind")
        w.string(widget.kind)
        w.key("family")
        w.string(widget.family)
        w.key("configuration")
        w.null()
        if let ext = widget.extensionBundle {
            w.key("extension")
            w.string(ext)
        }
        w.endObject()
    }
}

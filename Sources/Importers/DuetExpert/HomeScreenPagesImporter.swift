public import Ledger
import SmartStack

/// Reads duetexpertd's `HomeScreenPages` (forensic-sources.md §10b) into one
/// `stack.layoutObserved` (method `recorded`): each `ATXHomeScreenStackConfig` is a stack
/// whose id is its `identifier`, Smart Rotate from `allowsSmartRotate`, Widget Suggestions
/// from `allowsNewWidget`; one with both off and a single widget is a pinned widget.
///
/// duetexpertd rewrites the file when SpringBoard tells it of a new layout, so the event's
/// time is the file's modification time unless the caller gives one. The layout is
/// `complete` unless a stack could not be read.
public enum HomeScreenPagesImporter {
    /// The stream name in event ids and `source.stream`.
    static let stream = "DuetExpertCenter.HomeScreenPages"
    /// The file's name.
    public static let fileName = "HomeScreenPages"

    /// Reads the file at `path`.
    ///
    /// - Parameters:
    ///   - layoutTime: the layout's time; nil for the file's modification time.
    ///   - platform: the device's platform (`iOS` or `iPadOS`).
    ///   - evidenceSpan: as for IconState.plist.
    public static func read(
        path: String, context: ArtifactContext, layoutTime: Timestamp?, platform: String = "iOS",
        evidenceSpan: ClosedRange<Int64>? = nil
    ) -> ArtifactImport {
        .reading(path: path, context: context, stream: stream) { file in
            read(
                file: file, context: context,
                time: IconStateImporter.LayoutTime(given: layoutTime, uncertain: false, evidenceSpan: evidenceSpan),
                platform: platform)
        }
    }

    /// Reads a file already in memory (an archive member), dated as for IconState.plist.
    static func read(
        file: ArtifactFile, context: ArtifactContext, time: IconStateImporter.LayoutTime, platform: String
    ) -> ArtifactImport {
        var report = ImportFileReport(path: context.path)
        report.stream = stream
        report.artifact = file.sha256
        report.container = "NSKeyedArchiver"
        let layout: HomeScreenLayout
        do {
            layout = try HomeScreenLayout(homeScreenPages: file.bytes[...])
        } catch {
            return .failure(report, "\(error.message); nothing from this file was imported")
        }
        return IconStateImporter.layoutImport(
            layout, file: file, context: context, report: report,
            time: time, platform: platform, complete: layout.problems.isEmpty)
    }
}

import Ledger
import SmartStack

/// Reads `System/Library/CoreServices/SystemVersion.plist` into a `device.info`: the
/// platform (from `ProductName`) and the OS version (`ProductVersion`).
enum SystemVersionImporter {
    /// The most bytes a SystemVersion.plist may have (the real ones hold a few hundred).
    static let maximumBytes = 64 << 10

    /// The platform and version, or why they cannot be read.
    static func read(path: String) throws(ImportError) -> (file: ArtifactFile, platform: String, version: String) {
        try read(file: try ArtifactFile(path: path), path: path)
    }

    /// The platform and version of a SystemVersion.plist already read.
    static func read(file: ArtifactFile, path: String) throws(ImportError) -> (
        file: ArtifactFile, platform: String, version: String
    ) {
        guard file.bytes.count <= maximumBytes else {
            throw ImportError(
                path: path, message: "is \(file.bytes.count) bytes; a SystemVersion.plist has a few hundred")
        }
        let root: PlistValue
        do {
            root = try PropertyList.parse(file.bytes[...]).value
        } catch {
            throw ImportError(path: path, message: "is not a property list: \(error.description)")
        }
        guard let name = root["ProductName"]?.string, let version = root["ProductVersion"]?.string, !version.isEmpty
        else {
            throw ImportError(path: path, message: "holds no ProductName and ProductVersion")
        }
        let platform: String
        switch name {
        case "iPhone OS", "iOS": platform = "iOS"
        case "iPadOS": platform = "iPadOS"
        case "Watch OS", "watchOS": platform = "watchOS"
        default:
            throw ImportError(
                path: path, message: "names the platform \(name); StackLedger models iOS, iPadOS and watchOS")
        }
        return (file, platform, version)
    }

    /// The `device.info` event for the extraction, dated `time`.
    static func event(
        file: ArtifactFile, relative: String, device: String, time: Timestamp, timeZone: String?
    ) throws(ImportError) -> (event: Event?, report: ImportFileReport) {
        let (file, platform, version) = try read(file: file, path: relative)
        var report = ImportFileReport(path: relative)
        report.artifact = file.sha256
        report.container = "property list"
        report.stream = "SystemVersion"
        report.recordsRead = 1
        var sink = EventSink(context: ArtifactContext(sha256: file.sha256, path: relative, device: device))
        sink.yield(EventType.deviceInfo.rawValue, time: time, stream: "SystemVersion", locator: Locator(0)) { w in
            w.key("platform")
            w.string(platform)
            w.key("osVersion")
            w.string(version)
            if let timeZone {
                w.key("timeZone")
                w.string(timeZone)
            }
        }
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        return (result.events.first, result.report)
    }
}

import Foundation

/// Where a full file system extraction keeps what StackLedger reads, by the device's own
/// paths (forensic-sources.md): each file's path under the extraction's root says what it
/// is, and its importer checks the content.
enum ExtractionPaths {
    /// What a file of the extraction is to StackLedger.
    enum Role: Equatable {
        /// An artifact one of the importers reads.
        case artifact(ImportRun.Format)
        /// `System/Library/CoreServices/SystemVersion.plist`: the platform and OS version.
        case systemVersion
        /// A file StackLedger knows and does not read, with the reason.
        case notRead(String)
    }

    /// The role of the file at `relative` (a path under the root), or nil for a file of no
    /// interest.
    static func role(of relative: String) -> Role? {
        let parts = relative.split(separator: "/").map(String.init)
        guard let name = parts.last else { return nil }
        if let streams = parts.firstIndex(where: { $0.lowercased() == "streams" }),
            streams > 0, parts[streams - 1].lowercased() == "biome", parts.count >= streams + 5,
            ["public", "restricted"].contains(parts[streams + 1]), parts[streams + 3] == "local",
            !parts.contains(where: { $0.lowercased() == "tombstone" }), !name.hasPrefix(".")
        {
            return .artifact(.segb)
        }
        switch name {
        case "knowledgeC.db": return .artifact(.knowledgec)
        case "CurrentPowerlog.PLSQL": return .artifact(.powerlog)
        case "IconState.plist", "DesiredIconState.plist":
            return parts.contains("SpringBoard") ? .artifact(.iconstate) : nil
        case "SystemVersion.plist":
            return relative.hasSuffix("System/Library/CoreServices/SystemVersion.plist") ? .systemVersion : nil
        case HomeScreenPagesImporter.fileName where parts.contains("CachedHomeScreenConfig"):
            return .artifact(.homescreenpages)
        case "_ATXInfoSuggestionStore.db": return .artifact(.atx)
        default: break
        }
        if name.hasPrefix("powerlog_") && name.hasSuffix(".PLSQL") { return .artifact(.powerlog) }
        let lower = name.lowercased()
        if [".zip", ".tar", ".tar.gz", ".tgz"].contains(where: { lower.hasSuffix($0) }) {
            return .notRead("an archive inside the extraction: not unpacked; unpack it and import its folder")
        }
        if name.hasPrefix("chrono.sql") && parts.contains("chronod") {
            return .notRead("chronod's (WidgetKit's) database: no public format (§10d)")
        }
        if name.hasSuffix(".chrono-timeline") {
            return .notRead("a chronod (WidgetKit) timeline: no public format (§10d)")
        }
        if parts.contains("com.apple.chrono") || parts.contains(where: { $0.hasPrefix("group.com.apple.chronod") }) {
            return .notRead("a chronod (WidgetKit) cache: no public format (§10d)")
        }
        return nil
    }

    /// Where a device keeps the link that names its time zone.
    static let timeZoneLink = "private/var/db/timezone/localtime"

    /// The time zone the extraction's `localtime` link names (its target's path after
    /// `zoneinfo/`, when that is a time zone this system knows), with the link's path.
    static func timeZone(links: [PassedOver]) -> (name: String, path: String)? {
        for link in links where link.path.hasSuffix(timeZoneLink) {
            guard let target = link.linkTarget, let range = target.range(of: "zoneinfo/", options: .backwards) else {
                continue
            }
            let name = String(target[range.upperBound...])
            if TimeZone(identifier: name) != nil { return (name, link.path) }
        }
        return nil
    }
}

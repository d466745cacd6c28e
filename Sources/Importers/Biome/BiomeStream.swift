/// The Biome streams StackLedger reads, by their directory names.
public enum BiomeStream: String, CaseIterable, Sendable {
    /// INInteraction donations (`intent.donated`, api `siriKit`).
    case appIntent = "App.Intent"
    /// App Intents donations, iOS 17+ (`intent.donated`, api `appIntents`).
    case appIntentsTranscript = "App.Intents.Transcript"
    /// INRelevantShortcut donations (`shortcuts.relevantSet`).
    case relevantShortcuts = "App.RelevantShortcuts"
    /// The foreground app (`app.foreground`).
    case inFocus = "App.InFocus"
    /// Display backlight (`context.changed`, device `backlight`).
    case backlight = "Device.Display.Backlight"
    /// Screen lock (`context.changed`, device `locked`).
    case screenLocked = "Device.ScreenLocked"
    /// Low Power Mode (`context.changed`, device `lowPower`).
    case lowPowerMode = "Device.Power.LowPowerMode"
    /// True Tone (`context.changed`, device `trueTone`).
    case trueTone = "Device.Display.TrueTone"
    /// Visits to places (`context.changed`, a location region).
    case locationVisit = "Location.Visit"

    /// The stream a directory name denotes, including older names (`AppIntent` on iOS 14/15,
    /// the public `Backlight` stream).
    public static func named(_ name: String) -> BiomeStream? {
        switch name {
        case "AppIntent": return .appIntent
        case "Backlight": return .backlight
        default: return BiomeStream(rawValue: name)
        }
    }

    /// The stream name a file's path gives: the directory under `streams/public|restricted/`,
    /// else the directory above `local/` or `remote/`; nil when the path names none.
    public static func streamName(fromPath path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        if let s = parts.lastIndex(of: "streams") {
            var i = s + 1
            if i < parts.count, ["public", "restricted"].contains(parts[i]) { i += 1 }
            if i < parts.count - 1 { return parts[i] }
        }
        if let l = parts.lastIndex(where: { $0 == "local" || $0 == "remote" }), l > 0 {
            return parts[l - 1]
        }
        return nil
    }

    /// The stream a lone file's name begins with (`Device.Power.LowPowerMode.v1.segb`).
    static func prefixing(fileName: String) -> BiomeStream? {
        allCases.sorted { $0.rawValue.count > $1.rawValue.count }
            .first { fileName.hasPrefix($0.rawValue + ".") || fileName == $0.rawValue }
    }
}

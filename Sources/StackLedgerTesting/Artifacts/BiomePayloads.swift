/// Biome record payloads built from the field numbers of docs/forensic-sources.md §3.
public enum BiomePayloads {
    /// App.Intent: 2 bundle id, 4 intent class, 5 verb, 8 an INInteraction archive.
    public static func appIntent(
        app: String, intentClass: String, verb: String, start: Double, end: Double,
        identifier: String, groupIdentifier: String? = nil, padding: Int = 0
    ) -> [UInt8] {
        var interaction: [(String, ArchiveValue)] = [
            (
                "dateInterval",
                .object(
                    "NSDateInterval",
                    [("NS.startDate", .date(start)), ("NS.endDate", .date(end)), ("NS.duration", .real(end - start))])
            ),
            ("identifier", .string(identifier)),
            ("direction", .int(0)),
            ("_donatedBySiri", .bool(false)),
            (
                "intent",
                .object(
                    intentClass,
                    [
                        (
                            "backingStore",
                            .object(
                                "INIntentBackingStore", [("bytes", .data([UInt8](repeating: 0x2A, count: padding)))])
                        )
                    ])
            ),
        ]
        if let groupIdentifier { interaction.append(("groupIdentifier", .string(groupIdentifier))) }
        var m = ProtobufWriter()
        m.string(2, app)
        m.string(4, intentClass)
        m.string(5, verb)
        m.bytes(8, KeyedArchiveWriter.archive(.object("INInteraction", interaction)))
        return m.bytes
    }

    /// App.Intents.Transcript: 1 bundle id, 4 Unix time (double), 5 intent {1 class,
    /// 7 parameters {1 name, 2.3.1.1 title}}.
    public static func transcript(app: String, intentClass: String, unixTime: Double, parameters: [(String, String)])
        -> [UInt8]
    {
        var m = ProtobufWriter()
        m.string(1, app)
        m.double(4, unixTime)
        m.message(5) { i in
            i.string(1, intentClass)
            for (name, title) in parameters {
                i.message(7) { p in
                    p.string(1, name)
                    p.message(2) { v in v.message(3) { e in e.message(1) { t in t.string(1, title) } } }
                }
            }
        }
        return m.bytes
    }

    /// An INDateRelevanceProvider, a location one or a daily-routine one.
    public enum Provider: Sendable {
        case date(start: Double, end: Double)
        case region(latitude: Double, longitude: Double, radius: Double)
        case dailyRoutine(Int64)
    }

    /// App.RelevantShortcuts: 1 bundle id, 3 an INRelevantShortcut archive.
    public static func relevantShortcut(
        app: String, widgetKind: String, role: Int64, intentClass: String?, providers: [Provider]
    ) -> [UInt8] {
        var m = ProtobufWriter()
        m.string(1, app)
        m.bytes(
            3,
            relevantShortcutArchive(widgetKind: widgetKind, role: role, intentClass: intentClass, providers: providers))
        return m.bytes
    }

    /// An INRelevantShortcut as NSKeyedArchiver writes it.
    public static func relevantShortcutArchive(
        widgetKind: String, role: Int64, intentClass: String?, providers: [Provider]
    ) -> [UInt8] {
        let intent: ArchiveValue = intentClass.map { .object($0, [("intentClassName", .string($0))]) } ?? .null
        let ps: [ArchiveValue] = providers.map {
            switch $0 {
            case .date(let s, let e):
                return .object("INDateRelevanceProvider", [("startDate", .date(s)), ("endDate", .date(e))])
            case .region(let lat, let lon, let r):
                return .object(
                    "INLocationRelevanceProvider",
                    [
                        (
                            "region",
                            .object(
                                "CLCircularRegion",
                                [
                                    ("kCLRegionCodingKeyCenterLatitude", .real(lat)),
                                    ("kCLRegionCodingKeyCenterLongitude", .real(lon)),
                                    ("kCLRegionCodingKeyRadius", .real(r)),
                                ])
                        )
                    ])
            case .dailyRoutine(let s): return .object("INDailyRoutineRelevanceProvider", [("situation", .int(s))])
            }
        }
        return KeyedArchiveWriter.archive(
            .object(
                "INRelevantShortcut",
                [
                    ("widgetKind", .string(widgetKind)),
                    ("shortcutRole", .int(role)),
                    ("shortcut", .object("INShortcut", [("intent", intent)])),
                    ("relevanceProviders", .array(ps)),
                ]))
    }

    /// App.InFocus: 6 bundle id, 4 start (Cocoa), 3 1 = foreground / 0 = background.
    public static func inFocus(app: String, start: Double, foreground: Bool) -> [UInt8] {
        var m = ProtobufWriter()
        m.int(3, foreground ? 1 : 0)
        m.double(4, start)
        m.string(6, app)
        return m.bytes
    }

    /// Location.Visit: 3 coordinate {1 lat, 2 lon, 3 accuracy}, 4 arrival, 5 departure.
    public static func visit(
        latitude: Double, longitude: Double, accuracy: Double, arrival: Double, departure: Double, place: String
    ) -> [UInt8] {
        var m = ProtobufWriter()
        m.double(1, arrival)
        m.message(3) { c in
            c.double(1, latitude)
            c.double(2, longitude)
            c.double(3, accuracy)
        }
        m.double(4, arrival)
        m.double(5, departure)
        m.message(8) { p in p.message(5) { d in d.string(2, place) } }
        return m.bytes
    }

    /// Device.Display.Backlight: 1 time (Cocoa), 2 state.
    public static func backlight(time: Double, state: Int64) -> [UInt8] {
        var m = ProtobufWriter()
        m.double(1, time)
        m.int(2, state)
        return m.bytes
    }

    /// Device.ScreenLocked and similar: 1 the state.
    public static func deviceState(_ value: Int64) -> [UInt8] {
        var m = ProtobufWriter()
        m.int(1, value)
        return m.bytes
    }
}

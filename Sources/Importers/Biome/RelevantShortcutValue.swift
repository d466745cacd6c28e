import Ledger
import SmartStack

/// An INRelevantShortcut read from its NSKeyedArchiver form.
struct RelevantShortcutValue {
    var widgetKind: String
    var role: String
    var intentClass: String?
    var providers: [Provider]

    enum Provider {
        case date(start: Timestamp, end: Timestamp?)
        case region(latitude: Double, longitude: Double, radius: Double)
        case dailyRoutine(String)
    }

    /// INDailyRoutineSituation's raw values, in Apple's order.
    static let situations = [
        "morning", "evening", "home", "work", "school", "gym", "commute",
        "headphonesConnected", "activeWorkout", "physicalActivityIncomplete",
    ]

    /// Reads an archived INRelevantShortcut.
    init(archive bytes: ArraySlice<UInt8>) throws(WireFormatError) {
        let v = try KeyedArchiveReader(bytes).root
        widgetKind = v["widgetKind"]?.string ?? ""
        role = v["shortcutRole"]?.integer == 1 ? "information" : "action"
        let intent = v["shortcut"]?["intent"]
        intentClass = intent?["intentClassName"]?.string ?? intent?.className
        providers = []
        for p in v["relevanceProviders"]?.array ?? [] {
            if let start = p["startDate"]?.cocoaTime {
                guard let s = Timestamp.cocoaSeconds(start) else {
                    throw WireFormatError(
                        offset: 0, message: "relevance provider start date \(start) is outside 1970-2200")
                }
                let end = p["endDate"]?.cocoaTime.flatMap { Timestamp.cocoaSeconds($0) }
                providers.append(.date(start: s, end: end.map { max($0, s) }))
            } else if let region = p["region"],
                let lat = (region["kCLRegionCodingKeyCenterLatitude"] ?? region["latitude"])?.number,
                let lon = (region["kCLRegionCodingKeyCenterLongitude"] ?? region["longitude"])?.number
            {
                let radius = (region["kCLRegionCodingKeyRadius"] ?? region["radius"])?.number ?? 100
                providers.append(.region(latitude: lat, longitude: lon, radius: max(radius, 1)))
            } else if let situation = p["situation"]?.integer, situation >= 0, situation < Int64(Self.situations.count)
            {
                providers.append(.dailyRoutine(Self.situations[Int(situation)]))
            }
        }
    }

    func write(_ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("widgetKind")
        w.string(widgetKind)
        if role != "action" {
            w.key("role")
            w.string(role)
        }
        w.key("intent")
        if let intentClass {
            w.beginObject()
            w.key("intent")
            w.string(intentClass)
            w.endObject()
        } else {
            w.null()
        }
        w.key("relevanceProviders")
        w.beginArray()
        for p in providers {
            w.beginObject()
            switch p {
            case .date(let s, let e):
                w.key("date")
                w.beginObject()
                w.key("start")
                w.time(s)
                w.key("end")
                if let e { w.time(e) } else { w.null() }
                w.endObject()
            case .region(let lat, let lon, let r):
                w.key("location")
                w.beginObject()
                w.key("region")
                w.beginObject()
                w.key("latitude")
                w.number(lat)
                w.key("longitude")
                w.number(lon)
                w.key("radius")
                w.number(r)
                w.endObject()
                w.endObject()
            case .dailyRoutine(let s):
                w.key("dailyRoutine")
                w.string(s)
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

/// Builders of NDJSON event lines for engine tests (times are on 2026-03-02 unless a
/// full RFC 3339 time is given).
enum Line {
    static func t(_ time: String) -> String { time.contains("T") ? time : "2026-03-02T\(time):00Z" }

    static func stack(
        _ id: String = "home", platform: String = "iOS", family: String = "systemSmall",
        smartRotate: Bool = true, suggestions: Bool = true, at time: String = "06:00"
    ) -> String {
        #"{"type":"stack.created","time":"\#(t(time))","stack":"\#(id)","platform":"\#(platform)","family":"\#(family)","smartRotate":\#(smartRotate),"widgetSuggestions":\#(suggestions)}"#
    }

    static func add(
        _ instance: String, app: String, kind: String, stack: String = "home", family: String = "systemSmall",
        configuration: String = "null", at time: String = "06:01"
    ) -> String {
        #"{"type":"stack.widgetAdded","time":"\#(t(time))","stack":"\#(stack)","widget":{"instance":"\#(instance)","app":"\#(app)","kind":"\#(kind)","family":"\#(family)","configuration":\#(configuration)}}"#
    }

    /// `entries`: (date, score or nil for null relevance, duration).
    static func timeline(
        _ app: String, _ kind: String, at time: String, _ entries: [(String, Double?, Double)], policy: String? = nil
    ) -> String {
        let list = entries.map { e in
            let rel = e.1.map { #"{"score":\#($0),"duration":\#(e.2)}"# } ?? "null"
            return #"{"date":"\#(t(e.0))","relevance":\#(rel)}"#
        }.joined(separator: ",")
        let p = policy.map { #","policy":\#($0)"# } ?? ""
        return
            #"{"type":"widget.timeline","time":"\#(t(time))","app":"\#(app)","kind":"\#(kind)","entries":[\#(list)]\#(p)}"#
    }

    static func event(_ type: String, at time: String, app: String? = nil, _ fields: String) -> String {
        let a = app.map { #","app":"\#($0)""# } ?? ""
        return #"{"type":"\#(type)","time":"\#(t(time))"\#(a),\#(fields)}"#
    }

    static func device(platform: String = "iOS", os: String = "26.1", zone: String? = nil, at time: String = "05:00")
        -> String
    {
        let z = zone.map { #","timeZone":"\#($0)""# } ?? ""
        return #"{"type":"device.info","time":"\#(t(time))","platform":"\#(platform)","osVersion":"\#(os)"\#(z)}"#
    }
}

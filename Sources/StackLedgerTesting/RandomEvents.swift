import Ledger
import SmartStack

/// Random valid NDJSON lines covering every event type and shape of the contract, with
/// optional fields present or not, unknown fields, odd strings and numbers, and times
/// in several offsets: the input of the property tests.
public struct RandomEvents {
    var rng: SplitMix64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }

    static let names = [
        "w1", "home-1", "com.example.cards", "Ünïcødé", "tab\there", "quote\"d", "back\\slash",
        "emoji 🎉", "CardRecentPurchasesWidget", "a/b", "line\nbreak", "<img src=x onerror=alert(1)>",
    ]

    mutating func string() -> String {
        var s = pick(Self.names)
        if chance(50) { s += "-\(int(1000))" }
        return s
    }

    /// A JSON string literal of a random name.
    mutating func str() -> String { quote(string()) }

    func quote(_ s: String) -> String {
        var w = CanonicalWriter(capacity: 32)
        w.string(s)
        return w.text
    }

    mutating func number() -> String {
        switch int(6) {
        case 0: return "\(int(100))"
        case 1: return "\(Double(int(100_000)) / 100)"
        case 2: return "-\(int(50)).5"
        case 3: return "1e\(int(10))"
        case 4: return "0.1"
        default: return "\(Double(rng.next() % 1_000_000) / 7)"
        }
    }

    mutating func time() -> String {
        let micros = Int64(1_700_000_000_000_000) + Int64(rng.next() % 100_000_000_000_000)
        let offsets: [Int16] = [0, 60, -300, 330, 540, -30]
        var t = Timestamp(microseconds: micros, offsetMinutes: pick(offsets))
        if chance(50) { t.microseconds -= t.microseconds % 1_000_000 }
        return "\"\(t.rfc3339)\""
    }

    mutating func scalar() -> String {
        switch int(4) {
        case 0: return str()
        case 1: return number()
        case 2: return chance(50) ? "true" : "false"
        default: return "null"
        }
    }

    mutating func intent() -> String {
        var params = [String]()
        for k in 0..<int(4) { params.append("\(quote("p\(k)")):\(scalar())") }
        let p = chance(80) ? #","parameters":{\#(params.joined(separator: ","))}"# : ""
        let extra = chance(10) ? #","note":\#(str())"# : ""
        return #"{"intent":\#(str())\#(p)\#(extra)}"#
    }

    mutating func context() -> String {
        switch int(9) {
        case 0:
            return
                #"{"date":{"from":\#(time()),"to":"2200-01-01T00:00:00Z","kind":"\#(pick(["default", "informational", "scheduled"]))"}}"#
        case 1: return #"{"date":{"at":\#(time())}}"#
        case 2: return #"{"location":{"inferred":"\#(pick(["home", "work", "school", "commute"]))"}}"#
        case 3: return #"{"location":{"region":{"latitude":48.85,"longitude":2.35,"radius":\#(int(500))}}}"#
        case 4: return #"{"location":{"category":\#(str())}}"#
        case 5: return #"{"fitness":"\#(pick(["workoutActive", "activityRingsIncomplete"]))"}"#
        case 6: return #"{"sleep":"\#(pick(["bedtime", "wakeup"]))"}"#
        case 7: return #"{"hardware":{"headphones":"connected"}}"#
        default: return #"{"device":"\#(pick(["backlight", "locked", "lowPower", "trueTone"]))"}"#
        }
    }

    mutating func provider() -> String {
        switch int(3) {
        case 0: return #"{"date":{"start":\#(time()),"end":\#(chance(30) ? "null" : "\"2200-01-01T00:00:00Z\"")}}"#
        case 1: return #"{"location":{"region":{"latitude":-33.9,"longitude":151.2,"radius":100}}}"#
        default: return #"{"dailyRoutine":"\#(pick(["morning", "evening", "gym", "headphonesConnected"]))"}"#
        }
    }

    mutating func widget() -> String {
        #"{"instance":\#(str()),"app":\#(str()),"kind":\#(str()),"family":"systemSmall","configuration":\#(chance(50) ? intent() : "null")}"#
    }

    mutating func list(_ max: Int, _ item: (inout RandomEvents) -> String) -> String {
        var items = [String]()
        for _ in 0..<int(max + 1) { items.append(item(&self)) }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// The type-specific fields (without braces) of a random event of `type`.
    mutating func fields(_ type: EventType) -> String {
        switch type {
        case .stackCreated:
            return #""stack":\#(str()),"platform":"\#(pick(["iOS", "iPadOS", "watchOS"]))","family":"systemSmall""#
                + (chance(50) ? #","smartRotate":\#(chance(50))"# : "")
                + (chance(50) ? #","widgetSuggestions":\#(chance(50))"# : "")
        case .stackSettingsChanged:
            return #""stack":\#(str())"# + (chance(50) ? #","smartRotate":\#(chance(50))"# : "")
                + (chance(50) ? #","widgetSuggestions":false"# : "")
        case .widgetAdded:
            return #""stack":\#(str()),"widget":\#(widget())"# + (chance(50) ? #","position":\#(int(5))"# : "")
        case .widgetRemoved, .widgetPinned, .widgetUnpinned, .scrolled:
            return #""stack":\#(str()),"instance":\#(str())"#
        case .widgetMoved:
            return #""stack":\#(str()),"instance":\#(str()),"position":\#(int(9))"#
        case .suggestionKept:
            return #""stack":\#(str()),"instance":\#(str()),"kind":\#(str())"#
        case .suggestionDismissed:
            return chance(50)
                ? #""stack":\#(str()),"instance":\#(str()),"kind":\#(str())"#
                : #""extension":\#(str()),"kind":\#(str())"#
        case .widgetViewed, .widgetTapped:
            return #""instance":\#(str())"# + (chance(50) ? #","duration":\#(int(100))"# : "")
                + (chance(50) ? #","inStack":true"# : "")
        case .appForeground:
            return chance(50) ? #""duration":\#(int(1000))"# : #""x-extra":[1,{"a":null}]"#
        case .widgetTimeline:
            let entries = list(5) { r in
                #"{"date":\#(r.time()),"relevance":\#(r.chance(30) ? "null" : #"{"score":\#(r.number())\#(r.chance(50) ? #","duration":\#(r.int(3600))"# : "")}"#)}"#
            }
            let policy = [
                ",\"policy\":\"atEnd\"", ",\"policy\":\"never\"", ",\"policy\":{\"after\":\"2100-01-01T00:00:00Z\"}",
                "",
            ][int(4)]
            return #""kind":\#(str())"# + (chance(30) ? #","instance":\#(str())"# : "")
                + #","entries":\#(entries)\#(policy)"#
        case .widgetDeclared:
            return
                #""kind":\#(str()),"families":["systemSmall","accessoryRectangular"],"configuration":"\#(pick(["static", "intent", "relevance"]))""#
                + (chance(30) ? #","associatedKind":\#(str())"# : "")
        case .reloadRequested:
            return chance(50) ? #""kind":\#(str())"# : #""all":true"#
        case .widgetReloaded:
            return #""kind":\#(str())"# + (chance(50) ? #","reason":\#(str()),"budgetRemaining":\#(int(70))"# : "")
        case .intentDonated:
            return #""api":"\#(pick(["appIntents", "siriKit"]))","intent":\#(intent())"#
                + (chance(50) ? #","predictionParameters":["p0","p1"]"# : "")
                + (chance(50) ? #","donationId":\#(str())"# : "")
                + (chance(30) ? #","groupIdentifier":\#(str())"# : "")
        case .donationsDeleted:
            return [
                #""donationIds":[\#(str()),\#(str())]"#, #""intent":\#(str())"#, #""groupIdentifier":\#(str())"#,
                #""all":true"#,
            ][int(4)]
        case .relevantShortcuts:
            let shortcuts = list(3) { r in
                #"{"widgetKind":\#(r.str()),"role":"\#(r.pick(["action", "information"]))","intent":\#(r.chance(50) ? r.intent() : "null"),"relevanceProviders":\#(r.list(2) { $0.provider() })}"#
            }
            return #""shortcuts":\#(shortcuts)"#
        case .relevantIntents:
            return
                #""intents":\#(list(3) { r in #"{"widgetKind":\#(r.str()),"intent":\#(r.intent()),"context":\#(r.context())}"# })"#
        case .widgetRelevance:
            let attrs = list(3) { r in
                let group = [#","group":"automatic""#, #","group":"ungrouped""#, #","group":{"named":"g"}"#, ""][
                    r.int(4)]
                return
                    #"{"configuration":\#(r.chance(50) ? r.intent() : "null"),"context":\#(r.chance(70) ? r.context() : "null")\#(group)}"#
            }
            return #""kind":\#(str()),"attributes":\#(attrs)"#
        case .contextChanged:
            return #""context":\#(context()),"active":\#(chance(50))"#
        case .permissionChanged:
            return
                #""permission":"\#(pick(["locationForWidgets", "sleep", "workout", "activityRings"]))","granted":\#(chance(50))"#
        case .deviceInfo:
            return #""platform":"watchOS","osVersion":"26.1""# + (chance(50) ? #","timeZone":"Europe/Paris""# : "")
        case .developerMode:
            return #""enabled":\#(chance(50))"#
        case .stackObserved:
            return #""instance":\#(str()),"onScreen":\#(chance(50))"# + (chance(50) ? #","duration":65.5"# : "")
        case .layoutObserved:
            var stacks = [String]()
            for k in 0..<int(3) {
                var members = [String]()
                for j in 0..<int(4) {
                    members.append(
                        #"{"instance":"m\#(k)-\#(j)","app":\#(str()),"kind":\#(str()),"family":"systemSmall","configuration":null}"#
                    )
                }
                stacks.append(
                    #"{"stack":"s\#(k)","platform":"\#(pick(["iOS", "watchOS"]))","family":"systemSmall","members":[\#(members.joined(separator: ","))]"#
                        + (chance(50) ? #","smartRotate":\#(chance(50))"# : "") + "}")
            }
            return
                #""layout":\#(str()),"stacks":[\#(stacks.joined(separator: ","))],"method":"\#(pick(["recorded", "inferred"]))","complete":\#(chance(50))"#
        case .stackRemoved:
            return #""stack":\#(str())"#
        case .stackRotated:
            return #""kind":\#(str()),"extension":\#(str())"# + (chance(50) ? #","criterion":\#(str())"# : "")
                + (chance(50) ? #","staleness":\#(chance(50))"# : "")
        case .suggestionObserved:
            return #""kind":\#(str())"# + (chance(50) ? #","instance":\#(str())"# : "")
        case .relevanceObserved:
            return #""kind":\#(str()),"date":\#(time()),"relevance":"#
                + (chance(70) ? #"{"score":\#(int(100)),"duration":\#(int(3600))}"# : "null")
        }
    }

    /// A random valid NDJSON line (not necessarily canonical).
    public mutating func line(seqHint: Int = 0) -> String {
        let type = pick(EventType.allCases)
        var parts = [#""time":\#(time())"#, #""type":"\#(type.rawValue)""#]
        if chance(40) { parts.append(#""device":\#(str())"#) }
        parts.append(#""app":\#(str())"#)
        if chance(40) { parts.append(#""id":"id-\#(seqHint)-\#(int(1_000_000))""#) }
        if chance(20) {
            parts.append(
                #""source":{"artifact":"\#(String(repeating: "ab", count: 32))","path":\#(str()),"stream":"App.Intent","locator":\#(chance(50) ? "\(int(100_000))" : "\"row-7\"")}"#
            )
        }
        parts.append(fields(type))
        if chance(15) { parts.append(#""zExtra":{"nested":[1,2.5,"x",null,true]}"#) }
        return "{" + parts.joined(separator: ",") + "}"
    }
}

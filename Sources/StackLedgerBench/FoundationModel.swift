/// The event contract as typed `Decodable` values, the way an app developer would model it
/// for `JSONDecoder`: the baseline the NDJSON parser is measured against.
///
/// Each event is an enum case chosen by its `type`, read through nested keyed containers;
/// a shape with several forms (a context, a relevance provider) is told apart by which key
/// it holds, never by catching errors. The one place the contract leaves a value's JSON
/// type open is a parameter value (a scalar or a string), and a timeline's `policy` or an
/// attribute's `group` (a string or an object): those try the common form first. Times are
/// kept as strings, as the ledger's decoder parses them itself (decoding them as `Date`
/// would make the baseline slower still).
enum FoundationEvent: Decodable {
    case stackCreated(
        Envelope, stack: String, platform: String, family: String, smartRotate: Bool?, widgetSuggestions: Bool?)
    case stackSettingsChanged(Envelope, stack: String, smartRotate: Bool?, widgetSuggestions: Bool?)
    case widgetAdded(Envelope, stack: String, widget: Widget, position: Int?)
    case memberAction(Envelope, stack: String, instance: String, position: Int?)
    case suggestionAnswer(Envelope, stack: String, instance: String, kind: String)
    case engagement(Envelope, instance: String?, kind: String?, duration: Double?, stack: String?, inStack: Bool?)
    case appForeground(Envelope, duration: Double?)
    case timeline(Envelope, kind: String, instance: String?, entries: [Entry], policy: ReloadPolicy?)
    case declared(Envelope, kind: String, families: [String], configuration: String, associatedKind: String?)
    case reloadRequested(Envelope, kind: String?, all: Bool?)
    case reloaded(Envelope, kind: String, instance: String?, reason: String?, budgetRemaining: Double?)
    case donated(
        Envelope, api: String, intent: Intent, predictionParameters: [String]?, donationId: String?,
        groupIdentifier: String?)
    case donationsDeleted(Envelope, donationIds: [String]?, intent: String?, groupIdentifier: String?, all: Bool?)
    case relevantShortcuts(Envelope, [Shortcut])
    case relevantIntents(Envelope, [RelevantIntent])
    case widgetRelevance(Envelope, kind: String, attributes: [Attribute])
    case contextChanged(Envelope, Context, active: Bool)
    case permission(Envelope, permission: String, granted: Bool)
    case deviceInfo(Envelope, platform: String, osVersion: String, timeZone: String?)
    case developerMode(Envelope, enabled: Bool)
    case observed(Envelope, stack: String?, instance: String?, kind: String?, onScreen: Bool, duration: Double?)

    struct Envelope {
        var type: String
        var time: String
        var device: String?
        var app: String?
        var id: String?
        var source: Source?
    }

    struct Source: Decodable {
        var artifact: String
        var path: String
        var stream: String
        var locator: Locator
    }

    /// A record offset or row id (a number), or a locator an importer spells as text.
    enum Locator: Decodable {
        case number(Int64)
        case text(String)
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int64.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
        }
    }

    struct Intent: Decodable {
        var intent: String
        var parameters: [String: Parameter]?
    }

    /// A parameter value: a JSON scalar or a string (strings are the common case).
    enum Parameter: Decodable {
        case null
        case string(String)
        case number(Double)
        case bool(Bool)
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else {
                self = .number(try c.decode(Double.self))
            }
        }
    }

    struct Relevance: Decodable {
        var score: Double
        var duration: Double?
    }
    struct Entry: Decodable {
        var date: String
        var relevance: Relevance?
    }
    struct Widget: Decodable {
        var instance, app, kind, family: String
        var configuration: Intent?
    }

    enum ReloadPolicy: Decodable {
        case atEnd
        case never
        case after(String)
        private enum Keys: String, CodingKey { case after }
        init(from decoder: any Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                self = word == "never" ? .never : .atEnd
            } else {
                self = .after(try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .after))
            }
        }
    }

    struct Region: Decodable { var latitude, longitude, radius: Double }

    enum Provider: Decodable {
        case date(start: String, end: String?)
        case region(Region)
        case dailyRoutine(String)
        private enum Keys: String, CodingKey { case date, location, dailyRoutine }
        private enum DateKeys: String, CodingKey { case start, end }
        private enum LocationKeys: String, CodingKey { case region }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            if c.contains(.date) {
                let d = try c.nestedContainer(keyedBy: DateKeys.self, forKey: .date)
                self = .date(
                    start: try d.decode(String.self, forKey: .start),
                    end: try d.decodeIfPresent(String.self, forKey: .end))
            } else if c.contains(.location) {
                let l = try c.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
                self = .region(try l.decode(Region.self, forKey: .region))
            } else {
                self = .dailyRoutine(try c.decode(String.self, forKey: .dailyRoutine))
            }
        }
    }

    struct Shortcut: Decodable {
        var widgetKind: String
        var role: String?
        var intent: Intent?
        var relevanceProviders: [Provider]
    }

    enum Context: Decodable {
        case dateRange(from: String, to: String, kind: String?)
        case dateAt(String)
        case inferredLocation(String)
        case region(Region)
        case category(String)
        case fitness(String)
        case sleep(String)
        case headphones(String)
        case device(String)
        private enum Keys: String, CodingKey { case date, location, fitness, sleep, hardware, device }
        private enum DateKeys: String, CodingKey { case from, to, kind, at }
        private enum LocationKeys: String, CodingKey { case inferred, region, category }
        private enum HardwareKeys: String, CodingKey { case headphones }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            if c.contains(.date) {
                let d = try c.nestedContainer(keyedBy: DateKeys.self, forKey: .date)
                if d.contains(.at) {
                    self = .dateAt(try d.decode(String.self, forKey: .at))
                } else {
                    self = .dateRange(
                        from: try d.decode(String.self, forKey: .from), to: try d.decode(String.self, forKey: .to),
                        kind: try d.decodeIfPresent(String.self, forKey: .kind))
                }
            } else if c.contains(.location) {
                let l = try c.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
                if l.contains(.inferred) {
                    self = .inferredLocation(try l.decode(String.self, forKey: .inferred))
                } else if l.contains(.region) {
                    self = .region(try l.decode(Region.self, forKey: .region))
                } else {
                    self = .category(try l.decode(String.self, forKey: .category))
                }
            } else if c.contains(.fitness) {
                self = .fitness(try c.decode(String.self, forKey: .fitness))
            } else if c.contains(.sleep) {
                self = .sleep(try c.decode(String.self, forKey: .sleep))
            } else if c.contains(.hardware) {
                let h = try c.nestedContainer(keyedBy: HardwareKeys.self, forKey: .hardware)
                self = .headphones(try h.decode(String.self, forKey: .headphones))
            } else {
                self = .device(try c.decode(String.self, forKey: .device))
            }
        }
    }

    struct RelevantIntent: Decodable {
        var widgetKind: String
        var intent: Intent
        var context: Context
    }

    enum Group: Decodable {
        case automatic
        case ungrouped
        case named(String)
        private enum Keys: String, CodingKey { case named }
        init(from decoder: any Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                self = word == "ungrouped" ? .ungrouped : .automatic
            } else {
                self = .named(try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .named))
            }
        }
    }

    struct Attribute: Decodable {
        var configuration: Intent?
        var context: Context?
        var group: Group?
    }

    private enum Keys: String, CodingKey {
        case type
        case time
        case device
        case app
        case id
        case source
        case stack
        case platform
        case family
        case smartRotate
        case widgetSuggestions
        case widget
        case position
        case instance
        case kind
        case duration
        case inStack
        case entries
        case policy
        case families
        case configuration
        case associatedKind
        case all
        case reason
        case budgetRemaining
        case api
        case intent
        case predictionParameters
        case donationId
        case groupIdentifier
        case donationIds
        case shortcuts
        case intents
        case attributes
        case context
        case active
        case permission
        case granted
        case osVersion
        case timeZone
        case enabled
        case onScreen
    }

    struct UnknownType: Error { var type: String }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let e = Envelope(
            type: try c.decode(String.self, forKey: .type), time: try c.decode(String.self, forKey: .time),
            device: try c.decodeIfPresent(String.self, forKey: .device),
            app: try c.decodeIfPresent(String.self, forKey: .app),
            id: try c.decodeIfPresent(String.self, forKey: .id),
            source: try c.decodeIfPresent(Source.self, forKey: .source))
        func string(_ k: Keys) throws -> String { try c.decode(String.self, forKey: k) }
        func optional<T: Decodable>(_ k: Keys, _: T.Type = T.self) throws -> T? {
            try c.decodeIfPresent(T.self, forKey: k)
        }
        switch e.type {
        case "stack.created":
            self = .stackCreated(
                e, stack: try string(.stack), platform: try string(.platform), family: try string(.family),
                smartRotate: try optional(.smartRotate), widgetSuggestions: try optional(.widgetSuggestions))
        case "stack.settingsChanged":
            self = .stackSettingsChanged(
                e, stack: try string(.stack), smartRotate: try optional(.smartRotate),
                widgetSuggestions: try optional(.widgetSuggestions))
        case "stack.widgetAdded":
            self = .widgetAdded(
                e, stack: try string(.stack), widget: try c.decode(Widget.self, forKey: .widget),
                position: try optional(.position))
        case "stack.widgetRemoved", "stack.widgetMoved", "stack.widgetPinned", "stack.widgetUnpinned", "stack.scrolled":
            self = .memberAction(
                e, stack: try string(.stack), instance: try string(.instance), position: try optional(.position))
        case "suggestion.kept", "suggestion.dismissed":
            self = .suggestionAnswer(
                e, stack: try string(.stack), instance: try string(.instance), kind: try string(.kind))
        case "widget.viewed", "widget.tapped":
            self = .engagement(
                e, instance: try optional(.instance), kind: try optional(.kind), duration: try optional(.duration),
                stack: try optional(.stack), inStack: try optional(.inStack))
        case "app.foreground":
            self = .appForeground(e, duration: try optional(.duration))
        case "widget.timeline":
            self = .timeline(
                e, kind: try string(.kind), instance: try optional(.instance),
                entries: try c.decode([Entry].self, forKey: .entries), policy: try optional(.policy))
        case "widget.declared":
            self = .declared(
                e, kind: try string(.kind), families: try c.decode([String].self, forKey: .families),
                configuration: try string(.configuration), associatedKind: try optional(.associatedKind))
        case "widget.reloadRequested":
            self = .reloadRequested(e, kind: try optional(.kind), all: try optional(.all))
        case "widget.reloaded":
            self = .reloaded(
                e, kind: try string(.kind), instance: try optional(.instance), reason: try optional(.reason),
                budgetRemaining: try optional(.budgetRemaining))
        case "intent.donated":
            self = .donated(
                e, api: try string(.api), intent: try c.decode(Intent.self, forKey: .intent),
                predictionParameters: try optional(.predictionParameters), donationId: try optional(.donationId),
                groupIdentifier: try optional(.groupIdentifier))
        case "intent.donationsDeleted":
            self = .donationsDeleted(
                e, donationIds: try optional(.donationIds), intent: try optional(.intent),
                groupIdentifier: try optional(.groupIdentifier), all: try optional(.all))
        case "shortcuts.relevantSet":
            self = .relevantShortcuts(e, try c.decode([Shortcut].self, forKey: .shortcuts))
        case "intents.relevantSet":
            self = .relevantIntents(e, try c.decode([RelevantIntent].self, forKey: .intents))
        case "widget.relevance":
            self = .widgetRelevance(
                e, kind: try string(.kind), attributes: try c.decode([Attribute].self, forKey: .attributes))
        case "context.changed":
            self = .contextChanged(
                e, try c.decode(Context.self, forKey: .context), active: try c.decode(Bool.self, forKey: .active))
        case "permission.changed":
            self = .permission(
                e, permission: try string(.permission), granted: try c.decode(Bool.self, forKey: .granted))
        case "device.info":
            self = .deviceInfo(
                e, platform: try string(.platform), osVersion: try string(.osVersion), timeZone: try optional(.timeZone)
            )
        case "system.developerMode":
            self = .developerMode(e, enabled: try c.decode(Bool.self, forKey: .enabled))
        case "stack.observed":
            self = .observed(
                e, stack: try optional(.stack), instance: try optional(.instance), kind: try optional(.kind),
                onScreen: try c.decode(Bool.self, forKey: .onScreen), duration: try optional(.duration))
        default:
            throw UnknownType(type: e.type)
        }
    }
}

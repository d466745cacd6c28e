/// The event contract as plain `Decodable` types, the way a Swift developer would model it
/// for `JSONDecoder`: the baseline the NDJSON parser is measured against. Times are kept
/// as strings (decoding them as dates would make the baseline slower still).
struct FoundationEvent: Decodable {
    struct Source: Decodable { var artifact, path, stream: String?; var locator: FoundationJSON? }
    struct Intent: Decodable { var intent: String; var parameters: [String: FoundationJSON]? }
    struct Relevance: Decodable { var score: Double; var duration: Double? }
    struct Entry: Decodable { var date: String; var relevance: Relevance? }
    struct Widget: Decodable { var instance, app, kind, family: String; var configuration: Intent? }
    struct Provider: Decodable { var date: DateWindow?; var location: FoundationJSON?; var dailyRoutine: String? }
    struct DateWindow: Decodable { var start: String; var end: String? }
    struct Shortcut: Decodable { var widgetKind: String; var role: String?; var intent: Intent?; var relevanceProviders: [Provider]? }
    struct RelevantIntent: Decodable { var widgetKind: String; var intent: Intent; var context: FoundationJSON }
    struct Attribute: Decodable { var configuration: Intent?; var context: FoundationJSON?; var group: FoundationJSON? }

    var type: String
    var time: String
    var device, app, id: String?
    var source: Source?
    var stack, platform, family, instance, kind: String?
    var smartRotate, widgetSuggestions, active, granted, enabled, onScreen, inStack, all: Bool?
    var widget: Widget?
    var position: Int?
    var duration, budgetRemaining: Double?
    var entries: [Entry]?
    var policy: FoundationJSON?
    var families: [String]?
    var configuration: FoundationJSON?
    var associatedKind, reason, api, donationId, groupIdentifier, permission, osVersion, timeZone: String?
    var intent: FoundationJSON?
    var predictionParameters, donationIds: [String]?
    var shortcuts: [Shortcut]?
    var intents: [RelevantIntent]?
    var attributes: [Attribute]?
    var context: FoundationJSON?
}

/// Any JSON value, for the fields whose shape depends on the event type.
indirect enum FoundationJSON: Decodable {
    case null, bool(Bool), number(Double), string(String), array([FoundationJSON]), object([String: FoundationJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([FoundationJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: FoundationJSON].self)) }
    }
}

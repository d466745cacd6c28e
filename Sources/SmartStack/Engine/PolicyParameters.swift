import Foundation

/// Every undocumented choice of `smartstack-1`, with its default.
///
/// Each parameter is named in the reasons that rest on it (`"basis": "policy"`,
/// `"rule": <parameter name>`). `stackledger policy` prints them; `--policy FILE.json`
/// overrides any of them.
public struct PolicyParameters: Codable, Sendable, Hashable {
    /// The most widgets a stack holds (members and suggestions); a suggestion never
    /// makes a stack exceed it.
    public var maxWidgetsPerStack = 10
    /// How many Widget Suggestions an iOS/iPadOS stack shows at once.
    public var maxSuggestionsPerStack = 1
    /// How many relevance cards a watchOS stack shows at once.
    public var maxRelevanceCardsPerStack = 4
    /// The history window of the normalised score, in days of delivery time.
    public var normalizationWindowDays = 7
    /// Rotations to one widget per local day; nil is unlimited.
    public var rotationCapPerWidgetPerDay: Int? = 4
    /// Insertions of one widget kind as a suggestion per local day; nil is unlimited.
    public var suggestionCapPerWidgetPerDay: Int? = 2
    /// The usage model: a pattern exists at a local hour of day when at least this many
    /// donations (or app uses) fell in that hour...
    public var usagePatternMinimum = 3
    /// ...within this many days before now.
    public var usagePatternWindowDays = 14
    /// Whether `app.foreground` counts as usage for relevant shortcuts without providers.
    public var usageCountsAppForeground = true
    /// The rank of an open relevant-shortcut window (relevance scores rank by their
    /// normalised score, 0 to 1).
    public var relevantShortcutRank = 0.8
    /// The rank of a learned usage pattern.
    public var usagePatternRank = 0.6
    /// The rank of a matching RelevanceKit context.
    public var contextRank = 0.8
    /// Added to `contextRank` for a `scheduled` date clue, taken off for an
    /// `informational` one.
    public var dateKindRankAdjustment = 0.1
    /// Whether relevant intents informed Widget Suggestions on iOS 17 devices (the older
    /// documentation says so; the current one does not).
    public var relevantIntentsOnIOS17 = true
    /// Whether watchOS uses timeline-entry relevance (the platform table says no).
    public var watchUsesEntryRelevance = false
    /// Relevance-provider types that can open a Widget Suggestion: `date`, `empty`,
    /// `dailyRoutine`, `location`.
    public var suggestionProviders = ["date", "empty"]
    /// Lead before a `{"date": {"at": T}}` clue, in minutes.
    public var dateClueLeadMinutes = 30
    /// Lag after a `{"date": {"at": T}}` clue, in minutes.
    public var dateClueLagMinutes = 15
    /// The group of `automatic` relevance attributes and relevant intents: `perApp` or `none`.
    public var defaultRelevanceGroup = "perApp"
    /// After a dismissed suggestion, hours before that kind is suggested again in that stack.
    public var dismissCooldownHours = 24
    /// After the person scrolls a stack by hand, minutes before Smart Rotate moves it.
    public var scrollHoldMinutes = 60
    /// Whether an open relevant-shortcut window also lets Smart Rotate rotate to a widget
    /// of that kind already in the stack.
    public var relevantShortcutsRotateMembers = true
    /// Whether a widget parameter left unset (null or absent) matches any donated value.
    public var unsetWidgetParameterMatchesAny = false
    /// Whether a top whose relevance ended stays on top until something displaces it
    /// (false: the stack returns to its first widget).
    public var topStaysUntilDisplaced = true
    /// Reloads of one widget in 24 hours after which WidgetKit withholds more (the
    /// documentation gives 40 to 70 for a frequently viewed widget; rule T3).
    public var reloadBudgetPerDay = 55

    /// The defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxWidgetsPerStack, maxSuggestionsPerStack, maxRelevanceCardsPerStack, normalizationWindowDays
        case rotationCapPerWidgetPerDay, suggestionCapPerWidgetPerDay
        case usagePatternMinimum, usagePatternWindowDays, usageCountsAppForeground
        case relevantShortcutRank, usagePatternRank, contextRank, dateKindRankAdjustment
        case relevantIntentsOnIOS17, watchUsesEntryRelevance, suggestionProviders
        case dateClueLeadMinutes, dateClueLagMinutes, defaultRelevanceGroup
        case dismissCooldownHours, scrollHoldMinutes, relevantShortcutsRotateMembers
        case unsetWidgetParameterMatchesAny, topStaysUntilDisplaced, reloadBudgetPerDay
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(maxWidgetsPerStack, forKey: .maxWidgetsPerStack)
        try c.encode(maxSuggestionsPerStack, forKey: .maxSuggestionsPerStack)
        try c.encode(maxRelevanceCardsPerStack, forKey: .maxRelevanceCardsPerStack)
        try c.encode(normalizationWindowDays, forKey: .normalizationWindowDays)
        try c.encode(rotationCapPerWidgetPerDay, forKey: .rotationCapPerWidgetPerDay)
        try c.encode(suggestionCapPerWidgetPerDay, forKey: .suggestionCapPerWidgetPerDay)
        try c.encode(usagePatternMinimum, forKey: .usagePatternMinimum)
        try c.encode(usagePatternWindowDays, forKey: .usagePatternWindowDays)
        try c.encode(usageCountsAppForeground, forKey: .usageCountsAppForeground)
        try c.encode(relevantShortcutRank, forKey: .relevantShortcutRank)
        try c.encode(usagePatternRank, forKey: .usagePatternRank)
        try c.encode(contextRank, forKey: .contextRank)
        try c.encode(dateKindRankAdjustment, forKey: .dateKindRankAdjustment)
        try c.encode(relevantIntentsOnIOS17, forKey: .relevantIntentsOnIOS17)
        try c.encode(watchUsesEntryRelevance, forKey: .watchUsesEntryRelevance)
        try c.encode(suggestionProviders, forKey: .suggestionProviders)
        try c.encode(dateClueLeadMinutes, forKey: .dateClueLeadMinutes)
        try c.encode(dateClueLagMinutes, forKey: .dateClueLagMinutes)
        try c.encode(defaultRelevanceGroup, forKey: .defaultRelevanceGroup)
        try c.encode(dismissCooldownHours, forKey: .dismissCooldownHours)
        try c.encode(scrollHoldMinutes, forKey: .scrollHoldMinutes)
        try c.encode(relevantShortcutsRotateMembers, forKey: .relevantShortcutsRotateMembers)
        try c.encode(unsetWidgetParameterMatchesAny, forKey: .unsetWidgetParameterMatchesAny)
        try c.encode(topStaysUntilDisplaced, forKey: .topStaysUntilDisplaced)
        try c.encode(reloadBudgetPerDay, forKey: .reloadBudgetPerDay)
    }

    /// The range of each numeric parameter (docs/queries.md, "Policy parameters"): what the
    /// engine can represent and a person could mean. `whole`: an integer; `nullable`: null
    /// lifts the limit.
    public static let ranges: [(name: String, range: ClosedRange<Double>, whole: Bool, nullable: Bool)] = [
        ("maxWidgetsPerStack", 1...1_000, true, false),
        ("maxSuggestionsPerStack", 0...1_000, true, false),
        ("maxRelevanceCardsPerStack", 0...1_000, true, false),
        ("normalizationWindowDays", 1...3_660, true, false),
        ("rotationCapPerWidgetPerDay", 0...100_000, true, true),
        ("suggestionCapPerWidgetPerDay", 0...100_000, true, true),
        ("usagePatternMinimum", 1...1_000_000, true, false),
        ("usagePatternWindowDays", 1...3_660, true, false),
        ("relevantShortcutRank", 0...10, false, false),
        ("usagePatternRank", 0...10, false, false),
        ("contextRank", 0...10, false, false),
        ("dateKindRankAdjustment", 0...1, false, false),
        ("dateClueLeadMinutes", 0...527_040, true, false),
        ("dateClueLagMinutes", 0...527_040, true, false),
        ("dismissCooldownHours", 0...87_840, true, false),
        ("scrollHoldMinutes", 0...527_040, true, false),
        ("reloadBudgetPerDay", 1...Double(ReloadState.kept), true, false),
    ]

    /// Checks a parameter's JSON value against its range before it is decoded, so that a
    /// value out of range is named with its range rather than failing as a type.
    static func checkRange(_ name: String, _ value: Any) throws(PolicyError) {
        guard let (_, range, whole, nullable) = ranges.first(where: { $0.name == name }) else { return }
        let expected =
            (whole ? "a whole number" : "a number") + " from \(format(range.lowerBound)) to \(format(range.upperBound))"
            + (nullable ? ", or null" : "")
        if value is NSNull {
            guard nullable else { throw PolicyError("parameter \"\(name)\" must be \(expected) (it is null)") }
            return
        }
        guard let n = value as? NSNumber, !String(describing: type(of: n)).contains("Boolean") else {
            throw PolicyError("parameter \"\(name)\" must be \(expected)")
        }
        let d = n.doubleValue
        guard d.isFinite, range.contains(d), !whole || d == d.rounded() else {
            throw PolicyError("parameter \"\(name)\" must be \(expected) (it is \(n))")
        }
    }

    static func format(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    /// Checks ranges and enumerations.
    func validate() throws(PolicyError) {
        let values = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any]
        for (name, value) in values ?? [:] { try Self.checkRange(name, value) }
        let providers: Set = ["date", "empty", "dailyRoutine", "location"]
        for p in suggestionProviders where !providers.contains(p) {
            throw PolicyError(
                "parameter \"suggestionProviders\" names \"\(p)\"; use date, empty, dailyRoutine or location")
        }
        guard ["perApp", "none"].contains(defaultRelevanceGroup) else {
            throw PolicyError("parameter \"defaultRelevanceGroup\" must be \"perApp\" or \"none\"")
        }
    }
}

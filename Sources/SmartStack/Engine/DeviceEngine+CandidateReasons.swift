import RecordFormat

extension DeviceEngine {
    /// The reasons behind a candidate, with the events they rest on.
    mutating func reasons(_ candidate: Candidate, watch: Bool) -> [Reason] {
        switch candidate.signal {
        case .relevance(let relevance, let rule):
            return relevanceReasons(relevance, rule: rule, watch: watch)
        case .pattern(let intent, let evidence, let suggestion):
            return patternReasons(intent: intent, evidence: evidence, suggestion: suggestion)
        case .shortcut(_, let clue, let events, let usage, let member):
            return shortcutReasons(clue: clue, events: events, usage: usage, member: member)
        case .context(let clue, let events, let what, let card, let rule):
            return contextReasons(clue: clue, events: events, what: what, card: card, rule: rule)
        }
    }

    /// A timeline entry's relevance (R6, R7).
    private mutating func relevanceReasons(_ relevance: ActiveRelevance, rule: String, watch: Bool) -> [Reason] {
        let window =
            relevance.until.map {
                "\(state.clock.clockText(relevance.since.microseconds))-\(state.clock.clockText($0.microseconds))"
            }
            ?? "from \(state.clock.clockText(relevance.since.microseconds)) until the next entry with relevance"
        var out = [
            Reason(
                .relevanceScore, .documented, rule,
                "score \(format(relevance.score)) (normalised \(format(relevance.normalized)) among the app's own scores), active \(window)"
                    + (relevance.fromDeviceRecord ? "; the device's own record of the entry's relevance" : ""),
                events: [relevance.event])
        ]
        if watch {
            out.append(
                Reason(
                    .relevanceScore, .policy, "watchUsesEntryRelevance",
                    "timeline relevance counted on watchOS by policy", events: [relevance.event]))
        }
        return out
    }

    /// A learned donation pattern: rotation (D2) or suggestion (D3).
    private mutating func patternReasons(intent: String, evidence: [UInt64], suggestion: Bool) -> [Reason] {
        let documented =
            suggestion
            ? Reason(
                .donationPattern, .documented, "D3",
                "\(evidence.count) \(intent) donations at this hour of day and no matching widget in a stack: suggested, configured with the donated values",
                events: evidence)
            : Reason(
                .donationPattern, .documented, "D2",
                "\(evidence.count) matching \(intent) donations at this hour of day; the widget's configuration matches them",
                events: evidence)
        return [
            documented,
            Reason(
                .donationPattern, .policy, "usagePatternMinimum",
                "a pattern needs \(parameters.usagePatternMinimum) donations in the same local hour within \(parameters.usagePatternWindowDays) days",
                events: evidence),
        ]
    }

    /// A relevant shortcut: its open clue (S6), or usage standing in for none (S5).
    private mutating func shortcutReasons(clue: Clue?, events: [UInt64], usage: Int, member: Bool) -> [Reason] {
        var out: [Reason]
        if let clue {
            out = [
                Reason(.relevantShortcut, .documented, "S6", "relevant shortcut, \(describe(clue))", events: events)
            ]
        } else {
            out = [
                Reason(
                    .relevantShortcut, .documented, "S5",
                    "relevant shortcut with no providers: the system relies on usage (\(usage) uses at this hour)",
                    events: events),
                Reason(
                    .relevantShortcut, .policy, "usagePatternMinimum",
                    "usage counts once it reaches \(parameters.usagePatternMinimum) in the same local hour within \(parameters.usagePatternWindowDays) days",
                    events: events),
            ]
        }
        if member {
            out.append(
                Reason(
                    .relevantShortcut, .policy, "relevantShortcutsRotateMembers",
                    "an open relevant shortcut also rotates a widget already in the stack", events: events))
        }
        return out
    }

    /// A matching RelevanceKit context, and a relevance widget's further cards (W5).
    private mutating func contextReasons(clue: Clue, events: [UInt64], what: String, card: Int, rule: String)
        -> [Reason]
    {
        var out = [
            Reason(
                .relevantContext, .documented, rule, "\(what), \(describe(clue)), matches the person's context",
                events: events)
        ]
        if card > 1 {
            out.append(
                Reason(
                    .relevantContext, .documented, "W5", "a relevance widget shows one card per matching clue",
                    events: events))
        }
        if rule == "P3" {
            out.append(
                Reason(
                    .relevantContext, .policy, "relevantIntentsOnIOS17",
                    "iOS 17 logs follow the older documentation", events: events))
        }
        return out
    }
}

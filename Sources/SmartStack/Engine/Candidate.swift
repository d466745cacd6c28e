import RecordFormat

/// What makes a widget a candidate; the reasons are written from it only when a decision
/// is made.
package enum Signal: Hashable {
    /// A timeline entry's relevance (R6, R7).
    case relevance(ActiveRelevance, rule: String)
    /// A learned donation pattern: rotation (D2) or suggestion (D3).
    case pattern(intent: String, evidence: [UInt64], suggestion: Bool)
    /// A relevant shortcut: the set, the clue that is open (nil: no providers, usage
    /// stands in), and the events.
    case shortcut(setSeq: UInt64, clue: Clue?, events: [UInt64], usage: Int, member: Bool)
    /// A matching RelevanceKit context; `card` > 1 for further cards of a relevance widget.
    case context(clue: Clue, events: [UInt64], what: String, card: Int, rule: String)
}

/// A widget that could be on top, or placed in a stack, at the engine's instant.
package struct Candidate: Hashable {
    package var widget: WidgetIdentity
    /// Higher ranks first: a relevance score ranks by its normalised score (0-1), other
    /// signals by their policy rank.
    package var rank: Double
    package var signal: Signal
    /// What keeps a suggestion shown: it stays while a candidate with this source does.
    var source: String
    /// The relevance group (W4), for cards.
    package var group: String?

    package var relevance: ActiveRelevance? {
        if case .relevance(let r, _) = signal { return r }
        return nil
    }

    /// The relevance behind it when that is the device's own record of it.
    var deviceRecordRelevance: ActiveRelevance? {
        guard case .relevance(let r, _) = signal, r.fromDeviceRecord else { return nil }
        return r
    }
}

extension DeviceEngine {
    /// Drops the cached candidates of the members `affected` selects (the part that an
    /// event of that kind can change: a timeline's `relevance`, or the rest), and the
    /// stability of their stacks.
    mutating func dropCachedMembers(relevance: Bool = false, where affected: (Member) -> Bool) {
        for i in state.stacks.indices {
            for j in state.stacks[i].members.indices where affected(state.stacks[i].members[j]) {
                caches.members.drop(stack: i, member: j, relevance: relevance, usage: !relevance)
                caches.stableUntil.forget(i)
            }
        }
    }

    /// The kinds whose relevant shortcut has no providers, so that the app's usage stands
    /// in for them (S5): the only way an app's usage reaches a member's candidate.
    func kindsDeferringToUsage(app: String) -> [String] {
        guard parameters.relevantShortcutsRotateMembers, let set = state.shortcutSets[app] else { return [] }
        var kinds = [String]()
        for k in set.shortcuts.indices where set.shortcuts[k].providers.isEmpty { kinds.append(set.shortcuts[k].kind) }
        return kinds
    }

    /// The reasons behind a candidate, with the events they rest on.
    package mutating func reasons(_ candidate: Candidate, watch: Bool) -> [Reason] {
        switch candidate.signal {
        case .relevance(let relevance, let rule):
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
        case .pattern(let intent, let evidence, let suggestion):
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
        case .shortcut(_, let clue, let events, let usage, let member):
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
        case .context(let clue, let events, let what, let card, let rule):
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

    /// Whether a clue matches now; the events it rests on, and the permission it lacks.
    package func matches(_ clue: Clue, app: String) -> (Bool, [UInt64], missingPermission: String?) {
        switch clue {
        case .window(let from, let to, _):
            return (from <= state.now && state.now < to, [], nil)
        case .state(let key, let permission):
            guard let active = state.contexts[key] else { return (false, [], nil) }
            if let permission {
                guard let granted = state.permissions.value(app, 0x1F, permission), granted.granted else {
                    return (false, [active.seq], permission)
                }
                return (true, [active.seq, granted.seq], nil)
            }
            return (true, [active.seq], nil)
        }
    }

    /// A human description of a clue.
    package mutating func describe(_ clue: Clue) -> String {
        switch clue {
        case .window(let from, let to, let kind):
            let a = from == .min ? "…" : state.clock.clockText(from)
            let b = to == .max ? "…" : state.clock.clockText(to)
            return "date window \(a)-\(b)" + (kind.map { " (\($0))" } ?? "")
        case .state(let key, _):
            return "context \(key)"
        }
    }

    /// The rank of a matching context clue: `contextRank`, adjusted by its DateKind.
    func contextRank(_ clue: Clue) -> Double {
        if case .window(_, _, let kind) = clue {
            if kind == "scheduled" { return parameters.contextRank + parameters.dateKindRankAdjustment }
            if kind == "informational" { return parameters.contextRank - parameters.dateKindRankAdjustment }
        }
        return parameters.contextRank
    }

    /// Whether donated parameters match a widget's configuration (D1, D5).
    package func parametersMatch(donated: [String: String], widget: [String: String]) -> Bool {
        // Most intents carry one parameter: compared without hashing it.
        if donated.count == 1, widget.count <= 1, let (k, v) = donated.first {
            let w = widget.first.flatMap { $0.key == k ? $0.value : nil }
            return w == v || (parameters.unsetWidgetParameterMatchesAny && (w == nil || w == "null"))
        }
        for (k, v) in donated {
            let w = widget[k]
            if w == v { continue }
            if parameters.unsetWidgetParameterMatchesAny && (w == nil || w == "null") { continue }
            return false
        }
        return true
    }

    package func isIOS17() -> Bool { state.osVersion?.hasPrefix("17") ?? false }
}

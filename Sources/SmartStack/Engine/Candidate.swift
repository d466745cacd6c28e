import RecordFormat

/// What makes a widget a candidate; the reasons are written from it only when a decision
/// is made.
enum Signal: Hashable {
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
struct Candidate: Hashable {
    var widget: WidgetIdentity
    /// Higher ranks first: a relevance score ranks by its normalised score (0-1), other
    /// signals by their policy rank.
    var rank: Double
    var signal: Signal
    /// What keeps a suggestion shown: it stays while a candidate with this source does.
    var source: String
    /// The relevance group (W4), for cards.
    var group: String?

    var relevance: ActiveRelevance? {
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

    /// Whether a clue matches now; the events it rests on, and the permission it lacks.
    func matches(_ clue: Clue, app: String) -> (Bool, [UInt64], missingPermission: String?) {
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
    mutating func describe(_ clue: Clue) -> String {
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
    func parametersMatch(donated: [String: String], widget: [String: String]) -> Bool {
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

    func isIOS17() -> Bool { state.osVersion?.hasPrefix("17") ?? false }
}

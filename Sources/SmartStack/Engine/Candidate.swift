import Ledger

/// A widget that could be on top, or placed in a stack, at the engine's instant.
struct Candidate: Hashable {
    var widget: WidgetIdentity
    /// Higher ranks first: a relevance score ranks by its normalised score (0-1), other
    /// signals by their policy rank.
    var rank: Double
    /// The relevance score behind it, if any.
    var relevance: ActiveRelevance?
    /// What keeps it a candidate (for suggestions: it stays while this does).
    var source: String
    var reasons: [Reason]
    /// The relevance group (W4), for cards.
    var group: String?
}

extension DeviceEngine {
    /// Whether a clue matches now; the events it rests on.
    func matches(_ clue: Clue, app: String) -> (Bool, [UInt64], missingPermission: String?) {
        switch clue {
        case .window(let from, let to, _):
            return (from <= state.now && state.now < to, [], nil)
        case .state(let key, let permission):
            guard let active = state.contexts[key] else { return (false, [], nil) }
            if let permission {
                guard let granted = state.permissions[app + "\u{1F}" + permission], granted.granted else {
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
            if kind == "scheduled" { return p.contextRank + p.dateKindRankAdjustment }
            if kind == "informational" { return p.contextRank - p.dateKindRankAdjustment }
        }
        return p.contextRank
    }

    /// Whether donated parameters match a widget's configuration (D1, D5).
    func parametersMatch(donated: [String: String], widget: [String: String]) -> Bool {
        for (k, v) in donated {
            let w = widget[k]
            if w == v { continue }
            if p.unsetWidgetParameterMatchesAny && (w == nil || w == "null") { continue }
            return false
        }
        return true
    }

    /// Donations of `intent` in the current local hour within the window, matching
    /// `parameters` (nil: any); deleted ones excluded (D4).
    mutating func patternEvidence(intent: String?, app: String?, matching parameters: [String: String]?) -> [UInt64] {
        let hour = state.clock.hour(at: state.now)
        let horizon = state.now - Int64(p.usagePatternWindowDays) * 86_400_000_000
        var seqs = [UInt64]()
        for u in state.usage where u.hour == hour && u.time > horizon && u.time <= state.now && u.deletedBy == nil {
            if let intent {
                guard u.intent == intent else { continue }
                if let parameters, !parametersMatch(donated: u.parameters, widget: parameters) { continue }
            }
            if let app, u.app != app { continue }
            seqs.append(u.seq)
        }
        return seqs.count >= p.usagePatternMinimum ? seqs : []
    }

    func isIOS17() -> Bool { state.osVersion?.hasPrefix("17") ?? false }
}

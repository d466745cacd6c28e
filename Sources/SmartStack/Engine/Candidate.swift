import Ledger

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
}

/// The two parts a member's candidate is made of, each with the first instant at which it
/// may change by time alone (derived).
struct MemberParts {
    struct Part {
        /// The timeline's relevance; or the donation pattern (iOS, iPadOS) or the best
        /// context (watchOS).
        var candidate: Candidate?
        /// The relevant shortcut (iOS, iPadOS).
        var shortcut: Candidate?
        var until: Int64
        /// The context version it was computed from, nil when it does not depend on it.
        var contextVersion: UInt64?
    }
    var relevance: Part?
    var usage: Part?
}

/// Which of a member's parts is its candidate.
enum ChosenPart: UInt8 {
    case none, relevance, usage, shortcut
}

/// The cached candidates of every stack's members, by stack and member position
/// (derived; dropped whenever a stack's membership changes). Each member's entry says
/// which of its parts is the candidate, its rank and until when it holds; the parts
/// themselves are kept apart, so that an entry's date passing recomputes only the
/// timeline's part, and checking ranks copies nothing.
struct MemberCache {
    /// A member's candidate rank (nil: no candidate), where it comes from, and when it holds.
    struct Slot {
        var rank: Double?
        var chosen: ChosenPart
        var validUntil: Int64
        /// `UInt64.max`: the entry does not depend on the context.
        var contextVersion: UInt64
    }
    /// What a member's parts say, without their candidates: each part's rank, until
    /// when it holds and (for usage) the context version; nil `until`: no part.
    struct PartsMeta {
        var relevanceRank: Double?
        var relevanceUntil: Int64?
        var usageRank: Double?
        var shortcutRank: Double?
        var usageUntil: Int64?
        var usageContext: UInt64?
    }
    private var slots: [[Slot?]] = []
    private var meta: [[PartsMeta]] = []
    private var parts: [[MemberParts]] = []

    private mutating func reserve(stack i: Int, member j: Int) {
        while slots.count <= i { slots.append([]); meta.append([]); parts.append([]) }
        while slots[i].count <= j { slots[i].append(nil); meta[i].append(PartsMeta()); parts[i].append(MemberParts()) }
    }

    /// The member's entry when it holds at `now` for the context version `context`.
    func slot(stack i: Int, member j: Int, now: Int64, context: UInt64) -> Slot? {
        guard i < slots.count && j < slots[i].count, let slot = slots[i][j], now < slot.validUntil,
              slot.contextVersion == .max || slot.contextVersion == context else { return nil }
        return slot
    }

    /// The rank of a member's cached candidate (nil inside: no candidate), or nil when no
    /// entry holds at `now` for the context version `context`; reads without copying.
    func rank(stack i: Int, member j: Int, now: Int64, context: UInt64) -> Double?? {
        guard let slot = slot(stack: i, member: j, now: now, context: context) else { return nil }
        return .some(slot.rank)
    }

    /// Until when a member's cached entry holds, or nil when there is none.
    func validUntil(stack i: Int, member j: Int) -> Int64? {
        guard i < slots.count && j < slots[i].count else { return nil }
        return slots[i][j]?.validUntil
    }

    /// The candidate a member's entry names.
    func candidate(stack i: Int, member j: Int, _ chosen: ChosenPart) -> Candidate? {
        switch chosen {
        case .none: nil
        case .relevance: parts[i][j].relevance?.candidate
        case .usage: parts[i][j].usage?.candidate
        case .shortcut: parts[i][j].usage?.shortcut
        }
    }

    /// Whether the timeline's part is missing or no longer holds at `now`.
    func relevanceStale(stack i: Int, member j: Int, now: Int64) -> Bool {
        guard i < meta.count && j < meta[i].count, let until = meta[i][j].relevanceUntil else { return true }
        return now >= until
    }

    /// Whether the other part is missing or no longer holds at `now` and `context`.
    func usageStale(stack i: Int, member j: Int, now: Int64, context: UInt64) -> Bool {
        guard i < meta.count && j < meta[i].count, let until = meta[i][j].usageUntil else { return true }
        return now >= until || !(meta[i][j].usageContext.map { $0 == context } ?? true)
    }

    mutating func setRelevance(_ part: MemberParts.Part, stack i: Int, member j: Int) {
        reserve(stack: i, member: j)
        meta[i][j].relevanceRank = part.candidate?.rank
        meta[i][j].relevanceUntil = part.until
        parts[i][j].relevance = part
    }

    mutating func setUsage(_ part: MemberParts.Part, stack i: Int, member j: Int) {
        reserve(stack: i, member: j)
        meta[i][j].usageRank = part.candidate?.rank
        meta[i][j].shortcutRank = part.shortcut?.rank
        meta[i][j].usageUntil = part.until
        meta[i][j].usageContext = part.contextVersion
        parts[i][j].usage = part
    }

    /// Makes a member's entry from its parts (both present): the timeline's relevance
    /// unless the donation pattern (on watchOS the context), then the relevant shortcut,
    /// ranks above what is chosen so far.
    mutating func combine(stack i: Int, member j: Int) -> Slot {
        let m = meta[i][j]
        var chosen = ChosenPart.none
        var bestRank = -Double.infinity
        if let r = m.relevanceRank { chosen = .relevance; bestRank = r }
        if let r = m.usageRank, bestRank < r { chosen = .usage; bestRank = r }
        if let r = m.shortcutRank, bestRank < r { chosen = .shortcut; bestRank = r }
        let slot = Slot(rank: chosen == .none ? nil : bestRank, chosen: chosen, validUntil: min(m.relevanceUntil ?? .min, m.usageUntil ?? .min),
                        contextVersion: m.usageContext ?? .max)
        slots[i][j] = slot
        return slot
    }

    /// Drops a member's entry and the parts `relevance` and `usage` say.
    mutating func drop(stack i: Int, member j: Int, relevance: Bool, usage: Bool) {
        guard i < slots.count && j < slots[i].count else { return }
        slots[i][j] = nil
        if relevance {
            parts[i][j].relevance = nil
            meta[i][j].relevanceUntil = nil
        }
        if usage {
            parts[i][j].usage = nil
            meta[i][j].usageUntil = nil
        }
    }

    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        meta.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
    }
}

extension DeviceEngine {
    /// Drops the cached candidates of the members `affected` selects (the part that an
    /// event of that kind can change: a timeline's `relevance`, or the rest), and the
    /// stability of their stacks.
    mutating func dropCachedMembers(relevance: Bool = false, where affected: (Member) -> Bool) {
        for i in state.stacks.indices {
            for j in state.stacks[i].members.indices where affected(state.stacks[i].members[j]) {
                memberCache.drop(stack: i, member: j, relevance: relevance, usage: !relevance)
                if i < stableUntil.count { stableUntil[i] = .min }
            }
        }
    }

    /// The reasons behind a candidate, with the events they rest on.
    mutating func reasons(_ c: Candidate, watch: Bool) -> [Reason] {
        switch c.signal {
        case .relevance(let r, let rule):
            let window = r.until.map { "\(state.clock.clockText(r.since.microseconds))-\(state.clock.clockText($0.microseconds))" }
                ?? "from \(state.clock.clockText(r.since.microseconds)) until the next entry with relevance"
            var out = [Reason("RELEVANCE_SCORE", .documented, rule,
                              "score \(format(r.score)) (normalised \(format(r.normalized)) among the app's own scores), active \(window)",
                              events: [r.event])]
            if watch {
                out.append(Reason("RELEVANCE_SCORE", .policy, "watchUsesEntryRelevance", "timeline relevance counted on watchOS by policy", events: [r.event]))
            }
            return out
        case .pattern(let intent, let evidence, let suggestion):
            let documented = suggestion
                ? Reason("DONATION_PATTERN", .documented, "D3",
                         "\(evidence.count) \(intent) donations at this hour of day and no matching widget in a stack: suggested, configured with the donated values", events: evidence)
                : Reason("DONATION_PATTERN", .documented, "D2",
                         "\(evidence.count) matching \(intent) donations at this hour of day; the widget's configuration matches them", events: evidence)
            return [documented, Reason("DONATION_PATTERN", .policy, "usagePatternMinimum",
                                       "a pattern needs \(p.usagePatternMinimum) donations in the same local hour within \(p.usagePatternWindowDays) days", events: evidence)]
        case .shortcut(_, let clue, let events, let usage, let member):
            var out: [Reason]
            if let clue {
                out = [Reason("RELEVANT_SHORTCUT", .documented, "S6", "relevant shortcut, \(describe(clue))", events: events)]
            } else {
                out = [Reason("RELEVANT_SHORTCUT", .documented, "S5",
                              "relevant shortcut with no providers: the system relies on usage (\(usage) uses at this hour)", events: events),
                       Reason("RELEVANT_SHORTCUT", .policy, "usagePatternMinimum",
                              "usage counts once it reaches \(p.usagePatternMinimum) in the same local hour within \(p.usagePatternWindowDays) days", events: events)]
            }
            if member {
                out.append(Reason("RELEVANT_SHORTCUT", .policy, "relevantShortcutsRotateMembers",
                                  "an open relevant shortcut also rotates a widget already in the stack", events: events))
            }
            return out
        case .context(let clue, let events, let what, let card, let rule):
            var out = [Reason("RELEVANT_CONTEXT", .documented, rule, "\(what), \(describe(clue)), matches the person's context", events: events)]
            if card > 1 { out.append(Reason("RELEVANT_CONTEXT", .documented, "W5", "a relevance widget shows one card per matching clue", events: events)) }
            if rule == "P3" {
                out.append(Reason("RELEVANT_CONTEXT", .policy, "relevantIntentsOnIOS17", "iOS 17 logs follow the older documentation", events: events))
            }
            return out
        }
    }

    /// Whether a clue matches now; the events it rests on, and the permission it lacks.
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

    func isIOS17() -> Bool { state.osVersion?.hasPrefix("17") ?? false }
}

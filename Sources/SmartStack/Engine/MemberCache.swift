/// What usage, the relevant shortcuts and context make of a member, and the first instant
/// at which that may change by time alone (derived).
struct UsagePart {
    /// The rank of the donation pattern (iOS, iPadOS) or of the best context (watchOS).
    var rank: Double?
    /// The rank of the relevant shortcut (iOS, iPadOS).
    var shortcutRank: Double?
    /// Until when the donation pattern holds (it changes with the local hour).
    var patternUntil: Int64 = .max
    /// Until when the rest holds: the relevant shortcut, or the context.
    var otherUntil: Int64 = .max
    /// The context version the rest was computed from, nil when it does not depend on it.
    var contextVersion: UInt64?

    /// The candidates, when asked for: kept apart, so that a part made for its ranks
    /// alone stays small to pass around.
    private var candidates: Candidates?

    private final class Candidates {
        var pattern: Candidate?
        var shortcut: Candidate?
    }

    init() {}

    /// The donation pattern or the best context, when asked for.
    var candidate: Candidate? {
        get { candidates?.pattern }
        set { box().pattern = newValue }
    }
    /// The relevant shortcut, when asked for.
    var shortcut: Candidate? {
        get { candidates?.shortcut }
        set { box().shortcut = newValue }
    }

    /// The candidates' box, this part's own (a copy's is copied before it changes).
    private mutating func box() -> Candidates {
        if candidates == nil {
            candidates = Candidates()
        } else if !isKnownUniquelyReferenced(&candidates) {
            let copy = Candidates()
            (copy.pattern, copy.shortcut) = (candidates!.pattern, candidates!.shortcut)
            candidates = copy
        }
        return candidates!
    }
}

/// What opens a relevant shortcut: the provider's clue and the events it rests on, or
/// (no clue) the app's usage that an empty provider list defers to.
struct ShortcutOpening {
    var clue: Clue?
    var events: [UInt64]

    /// The signal, citing the set that holds the shortcut.
    func signal(set: ShortcutSet, member: Bool) -> Signal {
        .shortcut(
            setSeq: set.seq, clue: clue, events: [set.seq] + events, usage: clue == nil ? events.count : 0,
            member: member)
    }
}

/// Which of a member's parts is its candidate.
enum ChosenPart: UInt8 {
    case none, relevance, usage, shortcut
}

/// The cached candidates of every stack's members, by stack and member position
/// (derived; dropped whenever a stack's membership changes). A member's candidate has two
/// parts: the timeline's relevance and what usage, shortcuts and context make of it. Both
/// are kept as their ranks and validity only: a part's candidate is made again when a
/// decision or an explanation asks for it, and is the same while the part holds. A
/// member's entry (which part is the candidate, its rank, until when it holds) follows
/// from its parts, so that an entry's date passing recomputes only the timeline's part,
/// and checking ranks copies nothing.
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
    /// The usage part is kept as two: the donation pattern, which changes with the local
    /// hour, and the rest (the relevant shortcut, or on watchOS the context), which does
    /// not, so that an hour starting works out the first alone.
    struct PartsMeta {
        private(set) var relevanceRank: Double?
        private(set) var relevanceUntil: Int64?
        private(set) var patternRank: Double?
        private(set) var patternUntil: Int64?
        /// The context's rank (watchOS).
        private(set) var contextRank: Double?
        private(set) var shortcutRank: Double?
        private(set) var otherUntil: Int64?
        private(set) var otherContext: UInt64?

        /// `made`, kept: worked out again when a part changes, not at each look.
        private(set) var slot: Slot?

        mutating func setRelevance(rank: Double?, until: Int64) {
            (relevanceRank, relevanceUntil) = (rank, until)
            slot = made
        }

        /// Keeps the `parts` of a usage part that `part` was worked out for.
        mutating func setUsage(_ part: UsagePart, _ parts: UsageParts, watch: Bool) {
            if parts.contains(.pattern) {
                (patternRank, patternUntil) = (watch ? nil : part.rank, part.patternUntil)
            }
            if parts.contains(.other) {
                (contextRank, shortcutRank) = (watch ? part.rank : nil, part.shortcutRank)
                (otherUntil, otherContext) = (part.otherUntil, part.contextVersion)
            }
            slot = made
        }

        /// Drops the parts `relevance` and `usage` say, and so the entry.
        mutating func drop(relevance: Bool, usage: Bool) {
            if relevance { relevanceUntil = nil }
            if usage { (patternUntil, otherUntil) = (nil, nil) }
            slot = made
        }

        /// The entry the parts make, when all are there: the timeline's relevance
        /// unless the donation pattern (on watchOS the context), then the relevant
        /// shortcut, ranks above what is chosen so far.
        private var made: Slot? {
            guard let relevanceUntil, let patternUntil, let otherUntil else { return nil }
            var chosen = ChosenPart.none
            var bestRank = -Double.infinity
            if let r = relevanceRank {
                chosen = .relevance
                bestRank = r
            }
            // A member has a pattern (iOS, iPadOS) or a context (watchOS), not both.
            if let r = patternRank ?? contextRank, bestRank < r {
                chosen = .usage
                bestRank = r
            }
            if let r = shortcutRank, bestRank < r {
                chosen = .shortcut
                bestRank = r
            }
            return Slot(
                rank: chosen == .none ? nil : bestRank, chosen: chosen,
                validUntil: min(relevanceUntil, patternUntil, otherUntil),
                contextVersion: otherContext ?? .max)
        }
    }
    private var meta: [[PartsMeta]] = []
    /// Where each member's timelines are in the device's `TimelineBook`, once looked up.
    private var slots: [[TimelineBook.WidgetSlots?]] = []
    /// The generation each stack's rows were filled in; a row of an older generation is
    /// empty, so that dropping every entry costs the same however many stacks there are.
    private var rowGeneration: [UInt64] = []
    private var generation: UInt64 = 0
    /// How many rows were made or emptied for a stack since the cache was made: the
    /// measure of its upkeep, which grows with the stacks an engine evaluates.
    private(set) var rowsPrepared = 0

    /// Whether stack `i`'s rows belong to the current generation.
    private func live(_ i: Int) -> Bool { i < rowGeneration.count && rowGeneration[i] == generation }

    /// Makes stack `i`'s rows exist and belong to the current generation.
    private mutating func claim(_ i: Int) {
        while rowGeneration.count <= i {
            rowGeneration.append(generation)
            meta.append([])
            slots.append([])
            rowsPrepared += 1
        }
        if rowGeneration[i] != generation {
            rowGeneration[i] = generation
            meta[i].removeAll(keepingCapacity: true)
            slots[i].removeAll(keepingCapacity: true)
            rowsPrepared += 1
        }
    }

    /// Where a member's timelines were found, if they were looked up.
    func timelineSlots(stack i: Int, member j: Int) -> TimelineBook.WidgetSlots? {
        live(i) && j < slots[i].count ? slots[i][j] : nil
    }

    mutating func setTimelineSlots(_ found: TimelineBook.WidgetSlots, stack i: Int, member j: Int) {
        claim(i)
        while slots[i].count <= j { slots[i].append(nil) }
        slots[i][j] = found
    }

    private mutating func reserve(stack i: Int, member j: Int) {
        claim(i)
        while meta[i].count <= j { meta[i].append(PartsMeta()) }
    }

    /// The member's entry when it holds at `now` for the context version `context`.
    func slot(stack i: Int, member j: Int, now: Int64, context: UInt64) -> Slot? {
        guard live(i) && j < meta[i].count, let slot = meta[i][j].slot, now < slot.validUntil,
            slot.contextVersion == .max || slot.contextVersion == context
        else { return nil }
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
        guard live(i) && j < meta[i].count else { return nil }
        return meta[i][j].slot?.validUntil
    }

    /// Whether the timeline's part is missing or no longer holds at `now`.
    func relevanceStale(stack i: Int, member j: Int, now: Int64) -> Bool {
        guard live(i) && j < meta[i].count, let until = meta[i][j].relevanceUntil else { return true }
        return now >= until
    }

    /// Which of the usage part's two parts are missing or no longer hold at `now` and `context`.
    func staleUsage(stack i: Int, member j: Int, now: Int64, context: UInt64) -> UsageParts {
        guard live(i) && j < meta[i].count else { return .both }
        var stale = UsageParts()
        if meta[i][j].patternUntil.map({ now >= $0 }) ?? true { stale.insert(.pattern) }
        if meta[i][j].otherUntil.map({ now >= $0 || !(meta[i][j].otherContext.map { $0 == context } ?? true) }) ?? true
        {
            stale.insert(.other)
        }
        return stale
    }

    mutating func setRelevance(rank: Double?, until: Int64, stack i: Int, member j: Int) {
        reserve(stack: i, member: j)
        meta[i][j].setRelevance(rank: rank, until: until)
    }

    /// Keeps the ranks and validity of the `parts` of a member's usage part that `part`
    /// was worked out for (not its candidates).
    mutating func setUsage(_ part: UsagePart, _ parts: UsageParts, watch: Bool, stack i: Int, member j: Int) {
        reserve(stack: i, member: j)
        meta[i][j].setUsage(part, parts, watch: watch)
    }

    /// The member's entry, once both parts are set.
    func entry(stack i: Int, member j: Int) -> Slot {
        meta[i][j].slot!
    }

    /// Drops the parts `relevance` and `usage` say of a member, and so its entry.
    mutating func drop(stack i: Int, member j: Int, relevance: Bool, usage: Bool) {
        guard live(i) && j < meta[i].count else { return }
        meta[i][j].drop(relevance: relevance, usage: usage)
    }

    /// Drops every entry, in constant time: the rows are emptied as they are next used.
    mutating func removeAll() { generation &+= 1 }
}

/// The two parts of a member's usage part (see `MemberCache.PartsMeta`).
struct UsageParts: OptionSet {
    let rawValue: UInt8
    /// The donation pattern (iOS, iPadOS).
    static let pattern = UsageParts(rawValue: 1)
    /// The relevant shortcut (iOS, iPadOS) or the context (watchOS).
    static let other = UsageParts(rawValue: 2)
    static let both: UsageParts = [.pattern, .other]
}

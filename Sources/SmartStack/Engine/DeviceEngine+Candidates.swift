import RecordFormat

extension DeviceEngine {
    /// The strongest signal that makes a member of a stack a Smart Rotate candidate now,
    /// or nil, from the cache while it holds. Its two parts (the timeline's relevance, and
    /// what usage, shortcuts and context say) are kept apart, so that an entry's date
    /// passing recomputes only the first.
    mutating func memberCandidate(stack i: Int, member j: Int) -> Candidate? {
        switch memberSlot(stack: i, member: j).chosen {
        case .none: nil
        case .relevance: memberRelevance(stack: i, member: j).candidate
        case .usage: memberUsage(stack: i, member: j, candidates: true).candidate
        case .shortcut: memberUsage(stack: i, member: j, candidates: true).shortcut
        }
    }

    /// The rank of a member's candidate now (nil: none), without copying it.
    mutating func memberRank(stack i: Int, member j: Int) -> Double? {
        memberSlot(stack: i, member: j).rank
    }

    /// A member's cache entry, brought up to the current instant.
    mutating func memberSlot(stack i: Int, member j: Int) -> MemberCache.Slot {
        if let slot = caches.members.slot(stack: i, member: j, now: state.now, context: caches.contextVersion) {
            return slot
        }
        if caches.members.relevanceStale(stack: i, member: j, now: state.now) {
            let (rank, until) = memberRelevanceRank(stack: i, member: j)
            caches.members.setRelevance(rank: rank, until: until, stack: i, member: j)
        }
        let stale = caches.members.staleUsage(stack: i, member: j, now: state.now, context: caches.contextVersion)
        if !stale.isEmpty {
            caches.members.setUsage(
                memberUsage(stack: i, member: j, candidates: false, parts: stale), stale,
                watch: state.stacks[i].isWatch, stack: i, member: j)
        }
        return caches.members.entry(stack: i, member: j)
    }

    /// A member's timeline relevance now (R6, R7; on watchOS only by policy) as a
    /// candidate, and the first instant at which it may change by time alone.
    mutating func memberRelevance(stack i: Int, member j: Int) -> (candidate: Candidate?, until: Int64) {
        let (active, until) = memberTimeline(stack: i, member: j)
        guard let (r, duration) = active else { return (nil, until) }
        let w = state.stacks[i].members[j].widget
        return (
            Candidate(
                widget: w, rank: r.normalized, signal: .relevance(r, rule: duration > 0 ? "R7" : "R6"),
                source: "relevance"), until
        )
    }

    /// The rank of `memberRelevance` (its normalised score) and until when it holds,
    /// without making the candidate.
    mutating func memberRelevanceRank(stack i: Int, member j: Int) -> (rank: Double?, until: Int64) {
        let (active, until) = memberTimeline(stack: i, member: j)
        return (active?.0.normalized, until)
    }

    /// The relevance active for a member now, with its entry's duration, and until when
    /// that holds; none on watchOS unless the policy counts timeline relevance there.
    /// Where the member's timelines are is looked up once, and again only when the
    /// device's providers grew.
    private mutating func memberTimeline(stack i: Int, member j: Int) -> ((ActiveRelevance, Double)?, Int64) {
        guard !state.stacks[i].isWatch || parameters.watchUsesEntryRelevance else { return (nil, .max) }
        let found: TimelineBook.WidgetSlots
        if let known = caches.members.timelineSlots(stack: i, member: j), state.timelines.stillHolds(known) {
            found = known
        } else {
            let w = state.stacks[i].members[j].widget
            found = state.timelines.slots(app: w.app, kind: w.kind, instance: w.instance)
            caches.members.setTimelineSlots(found, stack: i, member: j)
        }
        return state.timelines.evaluate(found, at: state.now, windowMicros: windowMicros)
    }

    /// What a member's usage, the relevant shortcuts (iOS, iPadOS: P2) and RelevanceKit
    /// context (watchOS: P1) make of it now, and until when that holds. On iOS and iPadOS
    /// the donation pattern and the shortcut are kept apart, for `MemberCache.PartsMeta.slot` to rank.
    /// The ranks are always set; the candidates only when `candidates` is true. Only
    /// `parts` are worked out (the pattern alone when an hour starts).
    mutating func memberUsage(
        stack stackIndex: Int, member memberIndex: Int, candidates: Bool, parts: UsageParts = .both
    ) -> UsagePart {
        if !state.stacks[stackIndex].isWatch {
            return phoneMemberUsage(stack: stackIndex, member: memberIndex, candidates: candidates, parts: parts)
        }
        guard parts.contains(.other) else { return UsagePart() }
        return watchMemberUsage(stack: stackIndex, member: memberIndex, candidates: candidates)
    }

    /// On iOS and iPadOS: the member's donation pattern (D1) and its app's relevant shortcut.
    private mutating func phoneMemberUsage(
        stack stackIndex: Int, member memberIndex: Int, candidates: Bool, parts: UsageParts
    ) -> UsagePart {
        var part = UsagePart()
        let (widget, intent) = (
            state.stacks[stackIndex].members[memberIndex].widget, state.stacks[stackIndex].members[memberIndex].intent
        )
        if parts.contains(.pattern), let intent {
            let evidence = memberPattern(
                instance: widget.instance, intent: intent,
                parameters: state.stacks[stackIndex].members[memberIndex].parameters)
            part.patternUntil = evidence.until
            if !evidence.seqs.isEmpty {
                part.rank = parameters.usagePatternRank
                if candidates {
                    part.candidate = Candidate(
                        widget: widget, rank: parameters.usagePatternRank,
                        signal: .pattern(intent: intent, evidence: evidence.seqs, suggestion: false),
                        source: "pattern")
                }
            }
        }
        guard parts.contains(.other), parameters.relevantShortcutsRotateMembers,
            let set = state.shortcutSets[widget.app]
        else {
            return part
        }
        for index in set.shortcuts.indices where set.shortcuts[index].kind == widget.kind {
            let providers = set.shortcuts[index].providers
            if providers.isEmpty {
                part.otherUntil = min(part.otherUntil, appUsage(widget.app).until)
            }
            part.contextVersion = caches.contextVersion
            for providerIndex in providers.indices {
                part.otherUntil = min(part.otherUntil, providers[providerIndex].nextBoundary(after: state.now))
            }
        }
        if let opening = openingShortcut(in: set, app: widget.app, kind: widget.kind, forSuggestion: false) {
            part.shortcutRank = parameters.relevantShortcutRank
            if candidates {
                part.shortcut = Candidate(
                    widget: widget, rank: parameters.relevantShortcutRank,
                    signal: opening.signal(set: set, member: true),
                    source: "shortcut")
            }
        }
        return part
    }

    /// On watchOS: the best of the app's relevant intents and the kind's relevance
    /// attributes whose context holds now (P1).
    private mutating func watchMemberUsage(stack stackIndex: Int, member memberIndex: Int, candidates: Bool)
        -> UsagePart
    {
        var part = UsagePart()
        let (widget, intent) = (
            state.stacks[stackIndex].members[memberIndex].widget, state.stacks[stackIndex].members[memberIndex].intent
        )
        part.contextVersion = caches.contextVersion
        // The app's relevant intents naming the kind, then the kind's relevance
        // attributes (`contextSignals`), read in place.
        let parameters = state.stacks[stackIndex].members[memberIndex].parameters
        for (set, wholeSet) in [
            (state.intentSets[widget.app], false),
            (state.attributeSets[DeviceModel.appKind(widget.app, widget.kind)], true),
        ] {
            guard let set else { continue }
            for index in set.signals.indices where wholeSet || set.signals[index].kind == widget.kind {
                guard let clue = set.signals[index].clue else { continue }
                part.otherUntil = min(part.otherUntil, clue.nextBoundary(after: state.now))
                if let donated = set.signals[index].intent, donated == intent,
                    let params = set.signals[index].parameters,
                    !parametersMatch(donated: params, widget: parameters)
                {
                    continue
                }
                let rank = contextRank(clue)
                guard part.rank.map({ $0 < rank }) ?? true else { continue }
                let (ok, events, _) = matches(clue, app: widget.app)
                guard ok else { continue }
                part.rank = rank
                if candidates {
                    part.candidate = Candidate(
                        widget: widget, rank: rank,
                        signal: .context(
                            clue: clue, events: [set.seq] + events, what: "relevance clue", card: 1, rule: "W2"),
                        source: "context")
                }
            }
        }
        return part
    }

    /// The app's relevant intents and relevance attributes naming `kind`, with the event
    /// that set each.
    func contextSignals(app: String, kind: String) -> [(ContextSignal, UInt64)] {
        var out = [(ContextSignal, UInt64)]()
        if let set = state.intentSets[app] {
            for s in set.signals where s.kind == kind { out.append((s, set.seq)) }
        }
        if let set = state.attributeSets[DeviceModel.appKind(app, kind)] {
            for s in set.signals { out.append((s, set.seq)) }
        }
        return out
    }

    /// What opens the app's relevant shortcut for `kind` now, given the app's set: the
    /// first provider that matches, or (for an empty provider list) the app's usage.
    /// Providers combine with "any"; for suggestions only the policy's provider types count.
    mutating func openingShortcut(in set: ShortcutSet, app: String, kind: String, forSuggestion: Bool)
        -> ShortcutOpening?
    {
        // By index: a shortcut is read in place, not copied with its names and lists.
        for k in set.shortcuts.indices where set.shortcuts[k].kind == kind {
            let providers = set.shortcuts[k].providers
            if providers.isEmpty {
                guard !forSuggestion || parameters.suggestionProviders.contains("empty") else { continue }
                let evidence = appUsage(app).seqs
                if !evidence.isEmpty { return ShortcutOpening(clue: nil, events: evidence) }
                continue
            }
            for q in providers.indices {
                if forSuggestion && !parameters.suggestionProviders.contains(set.shortcuts[k].providerTypes[q]) {
                    continue
                }
                let (ok, events, _) = matches(providers[q], app: app)
                if ok { return ShortcutOpening(clue: providers[q], events: events) }
            }
        }
        return nil
    }

    /// The stack a system-placed widget of this kind goes to: the first (in creation
    /// order) of the right platform whose suggestions are on and whose family fits.
    func targetStack(app: String, kind: String, watch: Bool) -> Int? {
        state.targetStack(watch: watch, declaration: state.declarations[DeviceModel.appKind(app, kind)])
    }

    func format(_ d: Double) -> String {
        var w = CanonicalWriter(capacity: 16)
        w.number(d.roundedForDisplay)
        return w.text
    }
}

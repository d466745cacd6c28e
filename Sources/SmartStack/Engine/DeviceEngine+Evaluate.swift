import RecordFormat

extension DeviceEngine {
    /// Makes the decisions due at the current instant, stack by stack in creation order.
    /// `work` says what can have changed: a timeline's window alone cannot change what the
    /// system places, so suggestions are looked at only for other changes.
    mutating func evaluate(_ work: Work) {
        state.dirty = 0
        rollCounters()
        let placing = work.contains(.system)
        var system = placing ? systemCandidates() : []
        // By stack, each stack's in the order found: a stack takes its own in one step.
        if system.count > 1 {
            system = system.enumerated().sorted { ($0.element.stack, $0.offset) < ($1.element.stack, $1.offset) }
                .map(\.element)
        }
        // Only the stacks that may change are looked at: a stack with nothing to place
        // and no suggestion, whose Smart Rotate holds, makes no decision.
        var visit = caches.stableUntil.due(at: state.now, stacks: state.stacks.count)
        if visit != nil && placing {
            visit! += system.map(\.stack)
            visit! += state.stacks.withSuggestions
        }
        let stacks: [Int] = visit.map { Self.ascendingOnce($0) } ?? Array(state.stacks.indices)
        stacksLookedAt += stacks.count
        var next = 0
        for i in stacks {
            if placing {
                var mine = [Candidate]()
                while next < system.count && system[next].stack < i { next += 1 }
                while next < system.count && system[next].stack == i {
                    mine.append(system[next].candidate)
                    next += 1
                }
                let before = decisions.count
                placeSystemWidgets(stack: i, candidates: mine)
                // What the system placed changes what Smart Rotate compares with.
                if decisions.count != before { caches.stableUntil.forget(i) }
            }
            rotate(stack: i)
        }
        if placing && state.usageChanged { schedule(state.clock.nextHour(after: state.now)) }
    }

    /// The indices in ascending order, each once.
    static func ascendingOnce(_ indices: [Int]) -> [Int] {
        if indices.count < 2 { return indices }
        var out = indices.sorted()
        var unique = 1
        for k in 1..<out.count where out[k] != out[unique - 1] {
            out[unique] = out[k]
            unique += 1
        }
        out.removeLast(out.count - unique)
        return out
    }

    /// Removes suggestions that are no longer relevant (G2) and adds new ones.
    mutating func placeSystemWidgets(stack stackIndex: Int, candidates: [Candidate]) {
        if candidates.isEmpty && state.stacks[stackIndex].suggestions.isEmpty { return }
        retireSuggestions(stack: stackIndex, candidates: candidates)
        guard state.stacks[stackIndex].widgetSuggestions, !candidates.isEmpty else { return }
        placeSuggestions(stack: stackIndex, candidates: candidates)
    }

    /// G2: a shown suggestion stays while its signal is still relevant, citing the newest
    /// set that names it; the others leave the stack.
    private mutating func retireSuggestions(stack stackIndex: Int, candidates: [Candidate]) {
        let (widgetSuggestions, isWatch, settingsSeq) = (
            state.stacks[stackIndex].widgetSuggestions, state.stacks[stackIndex].isWatch,
            state.stacks[stackIndex].settingsSeq
        )
        for shown in state.stacks[stackIndex].suggestions {
            // A shown suggestion stays while its signal is still relevant (G2): a set sent
            // again that still names it keeps it, citing the newer set from then on.
            let still =
                widgetSuggestions
                ? candidates.first {
                    $0.widget.instance == shown.widget.instance && Self.sameSignal($0.source, shown.source)
                }
                : nil
            if let still {
                if still.source != shown.source,
                    let shownIndex = state.stacks[stackIndex].suggestions.firstIndex(where: {
                        $0.widget.instance == shown.widget.instance
                    })
                {
                    state.stacks[stackIndex].suggestions[shownIndex].source = still.source
                    state.stacks[stackIndex].suggestions[shownIndex].reasons = reasons(still, watch: isWatch)
                }
                continue
            }
            let reason =
                widgetSuggestions
                ? Reason(
                    .noActiveRelevance, .documented, isWatch ? "W2" : "G2",
                    isWatch ? "its context no longer matches" : "no longer relevant: what suggested it ended",
                    events: shown.reasons.flatMap(\.events))
                : Reason(
                    .stackToggleOff, .documented, "G2", "Widget Suggestions were turned off for this stack",
                    events: [settingsSeq])
            let from = state.stacks[stackIndex].identity(state.stacks[stackIndex].top)
            state.stacks[stackIndex].suggestions.removeAll { $0.widget.instance == shown.widget.instance }
            if state.stacks[stackIndex].top == shown.widget.instance {
                state.stacks[stackIndex].top = nil
                state.stacks[stackIndex].repairTop()
            }
            record(
                stack: stackIndex, action: .unsuggest, widget: shown.widget, from: from, reasons: [reason],
                setsTop: from?.instance != state.stacks[stackIndex].top)
        }
    }

    /// Places the candidates not yet shown, within the stack's caps, best-ranked first.
    private mutating func placeSuggestions(stack stackIndex: Int, candidates: [Candidate]) {
        let isWatch = state.stacks[stackIndex].isWatch
        let cap = isWatch ? parameters.maxRelevanceCardsPerStack : parameters.maxSuggestionsPerStack
        let ordered =
            candidates.count == 1
            ? candidates
            : candidates.enumerated().sorted { a, b in Self.placedBefore(a, b) }.map(\.element)
        // Placed at one instant, the best-ranked goes on top and the rest follow it in rank order.
        var slot = 0
        for candidate in ordered {
            let st = state.stacks[stackIndex]
            guard st.suggestions.count < cap else { break }
            // A card that replaces its associated kind's member (W5) takes no new place.
            guard
                st.suggestions.count + st.members.count - replacements(in: st).count < parameters.maxWidgetsPerStack
                    || replacesMember(candidate, in: st)
            else { break }
            if st.suggestions.contains(where: { $0.widget.instance == candidate.widget.instance }) { continue }
            if let group = candidate.group, st.suggestions.contains(where: { $0.group == group }) { continue }
            let kindKey = DeviceModel.appKind(candidate.widget.app, candidate.widget.kind)
            if let until = st.dismissedUntil[kindKey], state.now < until { continue }
            if limited(.suggestion, kindKey, cap: parameters.suggestionCapPerWidgetPerDay) { continue }
            count(.suggestion, kindKey, cap: parameters.suggestionCapPerWidgetPerDay)
            let from = st.identity(st.top)
            if let topInstance = st.top, st.member(topInstance) != nil {
                state.stacks[stackIndex].restingTop = topInstance
            }
            var why = reasons(candidate, watch: st.isWatch)
            if ordered.count > 1,
                let ranking = rankedFirst(
                    candidate,
                    over: ordered.filter {
                        $0.widget.instance != candidate.widget.instance
                            && RankOrder.isAbove(candidate.rank, $0.rank)
                    }.map(
                        RankSide.init))
            {
                why.append(ranking)
            }
            state.stacks[stackIndex].suggestions.insert(
                ShownSuggestion(
                    widget: candidate.widget, source: candidate.source, since: state.now, reasons: why,
                    group: candidate.group, rank: candidate.rank), at: slot)
            if slot == 0 { state.stacks[stackIndex].top = candidate.widget.instance }
            record(
                stack: stackIndex, action: .suggest, widget: candidate.widget, from: from, reasons: why,
                setsTop: slot == 0)
            slot += 1
        }
    }

    /// The order of suggestions placed at one instant (docs/queries.md, "Ties and changes of
    /// top"): best rank first; equal ranks, within the tolerance, by app then kind, then in
    /// the order the candidates were found.
    static func placedBefore(_ a: (offset: Int, element: Candidate), _ b: (offset: Int, element: Candidate)) -> Bool {
        let (x, y) = (a.element, b.element)
        if RankOrder.isAbove(x.rank, y.rank) { return true }
        if RankOrder.isAbove(y.rank, x.rank) { return false }
        if x.widget.app != y.widget.app { return x.widget.app < y.widget.app }
        if x.widget.kind != y.widget.kind { return x.widget.kind < y.widget.kind }
        return a.offset < b.offset
    }

    /// Whether two candidates' sources name the same signal: the same source, or the same
    /// entry of a set sent again (`shortcut:SEQ`, `intents:SEQ:I`, `attributes:SEQ:I`).
    static func sameSignal(_ a: String, _ b: String) -> Bool {
        func withoutSet(_ s: String) -> Substring {
            let parts = s.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] != "pattern", parts[1].allSatisfy(\.isNumber) else { return Substring(s) }
            return parts[0] + (parts.count == 3 ? ":" + parts[2] : "")
        }
        return a == b || withoutSet(a) == withoutSet(b)
    }

    /// Whether a card would take the place of a member of its associated kind (W5).
    func replacesMember(_ c: Candidate, in stack: StackState) -> Bool {
        guard stack.isWatch, let d = state.declarations[DeviceModel.appKind(c.widget.app, c.widget.kind)],
            d.configuration == "relevance", let associated = d.associatedKind
        else { return false }
        let taken = Set(replacements(in: stack).keys)
        return stack.members.indices.contains {
            !taken.contains($0) && stack.members[$0].widget.app == c.widget.app
                && stack.members[$0].widget.kind == associated
        }
    }

    /// Smart Rotate (G1): rotates to a strictly better-ranked member, within the rate limit (G3).
    mutating func rotate(stack stackIndex: Int) {
        if caches.stableUntil.holds(stackIndex, at: state.now) { return }
        let decisionsBefore = decisions.count
        defer { markStable(stack: stackIndex, changed: decisions.count != decisionsBefore) }
        guard !state.stacks[stackIndex].members.isEmpty, state.stacks[stackIndex].smartRotate,
            state.now >= state.stacks[stackIndex].holdUntil
        else { return }
        let top = state.stacks[stackIndex].top
        var topRank: Double? =
            state.stacks[stackIndex].suggestions.isEmpty
            ? nil : state.stacks[stackIndex].suggestions.first { $0.widget.instance == top }?.rank
        var ranked = caches.rankScratch
        caches.rankScratch = []
        ranked.removeAll(keepingCapacity: true)
        for memberIndex in state.stacks[stackIndex].members.indices {
            let cached = caches.members.rank(
                stack: stackIndex, member: memberIndex, now: state.now, context: caches.contextVersion)
            guard let rank = cached ?? memberRank(stack: stackIndex, member: memberIndex) else { continue }
            if state.stacks[stackIndex].members[memberIndex].widget.instance == top {
                topRank = rank
                continue
            }
            ranked.append((memberIndex, rank))
        }
        // The best-ranked candidate within its rate limit; ties go to the earlier member.
        var best: (member: Int, rank: Double)?
        let cap = state.developerMode || state.counters.isEmpty ? nil : parameters.rotationCapPerWidgetPerDay
        for contender in ranked where best == nil || RankOrder.isAbove(contender.rank, best!.rank) {
            if let topRank, !RankOrder.isAbove(contender.rank, topRank) { continue }
            if let cap,
                state.counters[.rotation, state.stacks[stackIndex].members[contender.member].widget.instance] >= cap
            {
                continue
            }
            best = contender
        }
        caches.rankScratch = ranked
        guard let best else {
            if topRank == nil, !parameters.topStaysUntilDisplaced,
                let first = state.stacks[stackIndex].members.first?.widget,
                first.instance != top
            {
                let from = state.stacks[stackIndex].identity(top)
                state.stacks[stackIndex].top = first.instance
                record(
                    stack: stackIndex, action: .rotate, widget: first, from: from,
                    reasons: [
                        Reason(
                            .kept, .policy, "topStaysUntilDisplaced",
                            "nothing is relevant; the stack returns to its first widget", events: [])
                    ])
            }
            return
        }
        if let topRank, !RankOrder.isAbove(best.rank, topRank) { return }
        guard let chosen = memberCandidate(stack: stackIndex, member: best.member) else { return }
        count(.rotation, chosen.widget.instance, cap: parameters.rotationCapPerWidgetPerDay)
        var why = reasons(chosen, watch: state.stacks[stackIndex].isWatch)
        // The relevance that chose it, when it is the device's own record of it.
        let deviceRecord = chosen.deviceRecordRelevance
        if let ranking = rankedFirst(stack: stackIndex, chosen: chosen, best: best.member, top: top, ranked: ranked) {
            why.append(ranking)
        }
        let from = state.stacks[stackIndex].identity(top)
        state.stacks[stackIndex].top = chosen.widget.instance
        state.stacks[stackIndex].restingTop = chosen.widget.instance
        record(
            stack: stackIndex, action: .rotate, widget: chosen.widget, from: from, reasons: why,
            deviceRecord: deviceRecord)
    }

    /// RANKED_FIRST for a rotation that chose `chosen` over other eligible widgets (the top
    /// it displaced, when that ranked, and the members it outranked); nil when it had no rival.
    mutating func rankedFirst(
        stack i: Int, chosen: Candidate, best: Int, top: String?, ranked: [(member: Int, rank: Double)]
    ) -> Reason? {
        var rivals = [RankSide]()
        if let top, let s = state.stacks[i].suggestions.first(where: { $0.widget.instance == top }) {
            rivals.append(RankSide(s))
        }
        for j in state.stacks[i].members.indices
        where j != best && (state.stacks[i].members[j].widget.instance == top || ranked.contains { $0.member == j }) {
            if let c = memberCandidate(stack: i, member: j), RankOrder.isAbove(chosen.rank, c.rank) {
                rivals.append(RankSide(c))
            }
        }
        return rankedFirst(chosen, over: rivals)
    }

    /// RANKED_FIRST: `chosen` ranked above each of `rivals`.
    mutating func rankedFirst(_ chosen: Candidate, over rivals: [RankSide]) -> Reason? {
        guard !rivals.isEmpty else { return nil }
        let (basis, rule, parameters) = RankSide(chosen).basis(against: rivals)
        let listed = rivals.prefix(3).map { "\($0.widget.kind) \(format($0.rank))" }.joined(separator: ", ")
        let more = rivals.count > 3 ? " and \(rivals.count - 3) more" : ""
        return Reason(
            .rankedFirst, basis, rule, "it ranks \(format(chosen.rank)), above \(listed)\(more)", events: [],
            parameters: parameters)
    }

    /// Notes until when stack `i` cannot change by time alone, after an evaluation that
    /// made no decision: the earliest of its members' candidates changing, its hold
    /// ending and the next local midnight (when the caps reset).
    mutating func markStable(stack i: Int, changed: Bool) {
        guard !changed else {
            caches.stableUntil.keep(i, until: .min, stacks: state.stacks.count)
            return
        }
        var until = state.clock.nextHour(after: state.now)
        let o = Int64(state.clock.offset(at: state.now)) * 60_000_000
        until = min(until, (state.clock.day(at: state.now) + 1) * 86_400_000_000 - o)
        let holdUntil = state.stacks[i].holdUntil
        if holdUntil > state.now { until = min(until, holdUntil) }
        if state.stacks[i].smartRotate && state.now >= holdUntil {
            for j in state.stacks[i].members.indices {
                guard let valid = caches.members.validUntil(stack: i, member: j) else {
                    caches.stableUntil.keep(i, until: .min, stacks: state.stacks.count)
                    return
                }
                until = min(until, valid)
            }
        }
        caches.stableUntil.keep(i, until: until, stacks: state.stacks.count)
    }

    /// Appends a decision.
    mutating func record(
        stack i: Int, action: DecisionAction, widget: WidgetIdentity, from: WidgetIdentity?, reasons: [Reason],
        setsTop: Bool = true, deviceRecord relevance: ActiveRelevance? = nil
    ) {
        var assumptions = state.stacks[i].assumptions(at: state.now, clock: &state.clock)
        if let relevance {
            assumptions.append(
                Assumption.relevanceFromDeviceRecord(stack: state.stacks[i].id, widget: widget, relevance: relevance))
        }
        let d = Decision(
            time: state.clock.timestamp(state.now), device: state.device, stack: state.stacks[i].id, action: action,
            widget: widget, from: from, top: state.stacks[i].identity(state.stacks[i].top), reasons: reasons,
            assumptions: assumptions.sorted())
        if setsTop { state.stacks[i].topDecision = d }
        decisions.append(d)
    }

    /// Resets the per-day counters at the device's local midnight.
    mutating func rollCounters() {
        let day = state.clock.day(at: state.now)
        if day != state.counterDay {
            state.counterDay = day
            state.counters.removeAll()
        }
    }

    /// Whether a widget reached its cap today (G3); Developer Mode lifts it.
    func limited(_ kind: DayCounters.Kind, _ key: String, cap: Int?) -> Bool {
        guard let cap, !state.developerMode else { return false }
        return state.counters[kind, key] >= cap
    }

    /// Counts a rotation or a suggestion of `key` today.
    mutating func count(_ kind: DayCounters.Kind, _ key: String, cap: Int?) {
        let n = state.counters[kind, key] + 1
        state.counters[kind, key] = n
        if let cap, n >= cap {
            // The cap lifts at local midnight: look again then.
            let o = Int64(state.clock.offset(at: state.now)) * 60_000_000
            schedule((state.counterDay + 1) * 86_400_000_000 - o)
        }
    }
}

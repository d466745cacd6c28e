import RecordFormat

extension DeviceEngine {
    /// Every candidate of a stack at the engine's instant: the widgets it shows and the
    /// system-placed widgets that target it, with scores, eligibility and reasons.
    /// It only reads: the caches its questions fill are a copy's.
    public func candidates(stack id: String) -> [CandidateExplanation] {
        var engine = self
        return engine.fillingCandidates(stack: id)
    }

    private mutating func fillingCandidates(stack id: String) -> [CandidateExplanation] {
        guard let stackIndex = state.stackIndex(id) else { return [] }
        let stack = state.stacks[stackIndex]
        var out = [CandidateExplanation]()
        for suggestion in stack.suggestions {
            out.append(
                CandidateExplanation(
                    widget: suggestion.widget, score: nil, normalized: nil, rank: suggestion.rank, eligible: true,
                    suggested: true,
                    reasons: suggestion.reasons))
        }
        for memberIndex in stack.members.indices {
            let member = stack.members[memberIndex]
            if member.widget.instance == stack.top {
                let candidate = memberCandidate(stack: stackIndex, member: memberIndex)
                out.append(
                    CandidateExplanation(
                        widget: member.widget, score: candidate?.relevance?.score,
                        normalized: candidate?.relevance?.normalized,
                        rank: candidate?.rank,
                        eligible: true, suggested: false,
                        reasons: candidate.map { reasons($0, watch: stack.isWatch) }
                            ?? placing(stack: stackIndex, member: memberIndex)))
            } else if let candidate = memberCandidate(stack: stackIndex, member: memberIndex) {
                var reasons = reasons(candidate, watch: stack.isWatch)
                let blocked = rotationBlockers(stack: stackIndex, member: member, candidate: candidate)
                reasons += blocked
                out.append(
                    CandidateExplanation(
                        widget: member.widget, score: candidate.relevance?.score,
                        normalized: candidate.relevance?.normalized, rank: candidate.rank,
                        eligible: blocked.isEmpty || blocked.allSatisfy { $0.code == "OUTRANKED" },
                        suggested: false, reasons: reasons))
            } else {
                out.append(
                    CandidateExplanation(
                        widget: member.widget, score: nil, normalized: nil, rank: nil, eligible: false,
                        suggested: false,
                        reasons: rotationPath(stack: stackIndex, member: member)))
            }
        }
        for (target, candidate) in systemCandidates()
        where target == stackIndex
            && !stack.suggestions.contains(where: { $0.widget.instance == candidate.widget.instance })
        {
            var reasons = reasons(candidate, watch: stack.isWatch)
            reasons += suggestionPath(
                stack: stackIndex, app: candidate.widget.app, kind: candidate.widget.kind, candidate: candidate)
            out.append(
                CandidateExplanation(
                    widget: candidate.widget, score: nil, normalized: nil, rank: candidate.rank, eligible: false,
                    suggested: false,
                    reasons: reasons))
        }
        return out
    }

    /// Why `query` (an instance id or a kind) is or is not on top or suggested in `stack`.
    /// It only reads: the caches its questions fill are a copy's.
    public func verdict(stack id: String, widget query: String) -> WidgetVerdict? {
        var engine = self
        return engine.fillingVerdict(stack: id, widget: query)
    }

    private mutating func fillingVerdict(stack id: String, widget query: String) -> WidgetVerdict? {
        guard let stackIndex = state.stackIndex(id) else { return nil }
        let stack = state.stacks[stackIndex]
        if let suggestion = stack.suggestions.first(where: { $0.widget.instance == query || $0.widget.kind == query }) {
            var reasons = suggestion.reasons
            if stack.top != suggestion.widget.instance, let topWidget = stack.identity(stack.top) {
                reasons.append(
                    Reason(
                        .outranked, .policy, "maxSuggestionsPerStack",
                        "\(topWidget.kind) is on top; the suggestion is shown below it", events: []))
            }
            return WidgetVerdict(
                query: query, onTop: stack.top == suggestion.widget.instance, suggested: true, reasons: reasons)
        }
        if let memberIndex = stack.members.firstIndex(where: { $0.widget.instance == query || $0.widget.kind == query })
        {
            let member = stack.members[memberIndex]
            let onTop = stack.top == member.widget.instance
            var reasons = [Reason]()
            if onTop { reasons += placing(stack: stackIndex, member: memberIndex) }
            if !onTop || memberCandidate(stack: stackIndex, member: memberIndex) == nil {
                if let candidate = memberCandidate(stack: stackIndex, member: memberIndex) {
                    reasons += rotationBlockers(stack: stackIndex, member: member, candidate: candidate)
                } else if !onTop {
                    reasons += rotationPath(stack: stackIndex, member: member)
                }
            }
            return WidgetVerdict(query: query, onTop: onTop, suggested: false, reasons: reasons)
        }
        // Not in this stack: the suggestion path, for the kind.
        let (app, kind) = resolve(query)
        let candidate = systemCandidates().first {
            $0.stack == stackIndex && $0.candidate.widget.kind == kind && $0.candidate.widget.app == app
        }?.candidate
        var reasons = suggestionPath(stack: stackIndex, app: app, kind: kind, candidate: candidate)
        if reasons.isEmpty, let candidate = candidate {
            reasons = [
                Reason(
                    .outranked, .policy, stack.isWatch ? "maxRelevanceCardsPerStack" : "maxSuggestionsPerStack",
                    "\(kind) is a candidate (rank \(format(candidate.rank))) but the stack already shows as many suggestions as the policy allows",
                    events: [])
            ]
        }
        return WidgetVerdict(query: query, onTop: false, suggested: false, reasons: reasons)
    }

    /// What placed a member on top: the decision that did, or why it stays.
    mutating func placing(stack stackIndex: Int, member memberIndex: Int) -> [Reason] {
        let stack = state.stacks[stackIndex]
        let member = stack.members[memberIndex]
        var out = [Reason]()
        if let decision = stack.topDecision, decision.widget.instance == member.widget.instance,
            decision.action != .unsuggest
        {
            out += decision.reasons
        } else if let decision = stack.topDecision, decision.action == .unsuggest {
            out.append(
                Reason(
                    .kept, .documented, "G2",
                    "the suggestion above it was removed at \(state.clock.clockText(decision.time.microseconds)); the stack returned to it",
                    events: decision.reasons.flatMap(\.events)))
        }
        if member.pinned {
            out.append(
                Reason(
                    .pinned, .documented, "W6",
                    "the person pinned \(member.widget.kind) to a fixed position in \(stack.id)",
                    events: [member.addedSeq]))
        }
        if memberCandidate(stack: stackIndex, member: memberIndex) == nil && !member.pinned {
            let lapsed = relevanceDetail(member)
            out.append(
                Reason(
                    .kept, .policy, "topStaysUntilDisplaced",
                    "nothing better is relevant, so it stays on top" + (lapsed.map { " (\($0.detail))" } ?? ""),
                    events: lapsed?.events ?? []))
        }
        return out
    }

    /// The reasons a member with a live signal is not on top: toggles, rate limit, scroll, rank.
    mutating func rotationBlockers(stack stackIndex: Int, member: Member, candidate: Candidate) -> [Reason] {
        let stack = state.stacks[stackIndex]
        guard stack.top != member.widget.instance else { return [] }
        var out = [Reason]()
        if !stack.smartRotate {
            out.append(
                Reason(
                    .stackToggleOff, .documented, "G1", "Smart Rotate is off for \(stack.id)",
                    events: [stack.settingsSeq]))
        }
        if state.now < stack.holdUntil {
            out.append(
                Reason(
                    .userScrolled, .policy, "scrollHoldMinutes",
                    "the person scrolled the stack; Smart Rotate waits until \(state.clock.clockText(stack.holdUntil))",
                    events: stack.topDecision?.action == .scroll ? stack.topDecision!.reasons.flatMap(\.events) : []))
        }
        if let cap = parameters.rotationCapPerWidgetPerDay, limited(.rotation, member.widget.instance, cap: cap) {
            out.append(
                Reason(
                    .rateLimited, .policy, "rotationCapPerWidgetPerDay",
                    "rotated to \(state.counters[.rotation, member.widget.instance]) times today (local day); the cap is \(cap); Developer Mode is off",
                    events: [state.developerModeSeq].filter { $0 > 0 }))
        }
        if let topInstance = stack.top, topInstance != member.widget.instance {
            let top =
                stack.suggestions.first { $0.widget.instance == topInstance }.map(RankSide.init)
                ?? stack.members.firstIndex { $0.widget.instance == topInstance }.flatMap {
                    memberCandidate(stack: stackIndex, member: $0)
                }.map(RankSide.init)
            if let top, !RankOrder.isAbove(candidate.rank, top.rank) {
                // Only one provider's own scores compare by a documented rule (R2).
                let (basis, rule, parameters) = RankSide(candidate).basis(against: [top])
                let tied = RankOrder.isTied(candidate.rank, top.rank)
                out.append(
                    Reason(
                        tied ? .kept : .outranked, basis, rule,
                        tied
                            ? "it ranks \(format(candidate.rank)), equal to the top, \(top.widget.kind) (\(format(top.rank))), within 1e-9; a tie keeps the top"
                            : "it ranks \(format(candidate.rank)); the top, \(top.widget.kind), ranks \(format(top.rank))",
                        events: [], parameters: parameters))
            }
        }
        return out
    }

    /// Why a member of a stack has no live signal, in the documented order.
    mutating func rotationPath(stack stackIndex: Int, member: Member) -> [Reason] {
        let stack = state.stacks[stackIndex]
        var out = [Reason]()
        if !stack.smartRotate {
            out.append(
                Reason(
                    .stackToggleOff, .documented, "G1", "Smart Rotate is off for \(stack.id)",
                    events: [stack.settingsSeq]))
        }
        let widget = member.widget
        let hasTimeline = state.timelines.list(app: widget.app, kind: widget.kind, instance: widget.instance) != nil
        let hasContext = !contextSignals(app: widget.app, kind: widget.kind).isEmpty
        if stack.isWatch && hasTimeline && !parameters.watchUsesEntryRelevance {
            out.append(
                Reason(
                    .platformIgnoresSignal, .documented, "P2",
                    "timeline relevance acts on iOS and iPadOS; this stack is on watchOS", events: []))
        }
        if !stack.isWatch && hasContext {
            out.append(
                Reason(
                    .platformIgnoresSignal, .documented, "P1",
                    "RelevanceKit signals act on watchOS only; this stack is on \(stack.platform)",
                    events: contextSignals(app: widget.app, kind: widget.kind).map(\.1)))
        }
        if let detail = relevanceDetail(member), !stack.isWatch || parameters.watchUsesEntryRelevance {
            out.append(detail)
            out += reloadReasons(widget)
        } else if !stack.isWatch || parameters.watchUsesEntryRelevance {
            out.append(
                Reason(
                    .noActiveRelevance, .documented, "R8",
                    "no timeline with relevance was delivered for \(widget.kind)",
                    events: []))
            out += reloadReasons(widget)
        }
        if !stack.isWatch, let intent = member.intent {
            out += donationReasons(intent: intent, widgetParameters: member.parameters)
        }
        if stack.isWatch { out += contextReasons(app: widget.app, kind: widget.kind) }
        if out.isEmpty {
            out.append(
                Reason(
                    .noActiveRelevance, .documented, stack.isWatch ? "W2" : "R8",
                    "no signal for \(widget.kind) is active now", events: []))
        }
        return out
    }

    /// NO_ACTIVE_RELEVANCE made concrete from the member's last entry with relevance.
    mutating func relevanceDetail(_ member: Member) -> Reason? {
        let widget = member.widget
        guard let list = state.timelines.list(app: widget.app, kind: widget.kind, instance: widget.instance) else {
            return nil
        }
        let (governing, next) = list.relevance(at: state.now)
        guard let entry = governing, let score = entry.score else {
            if let next {
                return Reason(
                    .noActiveRelevance, .documented, "R7",
                    "the first entry with relevance starts at \(state.clock.clockText(next.date))", events: [next.seq])
            }
            return nil
        }
        let at = state.clock.clockText(entry.date)
        let then = next.map { "; the next entry with relevance is at \(state.clock.clockText($0.date))" } ?? ""
        if score <= 0 {
            return Reason(
                .noActiveRelevance, .documented, score == 0 ? "R5" : "R1",
                "the \(at) entry scored \(format(score)), which is not relevant\(then)", events: [entry.seq])
        }
        if entry.duration > 0 {
            let end = entry.date + EventLimits.micros(entry.duration)
            if end <= state.now {
                return Reason(
                    .noActiveRelevance, .documented, "R7",
                    "the \(at) entry's \(format(entry.duration)) s window closed at \(state.clock.clockText(end))\(then)",
                    events: [entry.seq])
            }
        }
        return nil
    }

    /// DONATION_NO_MATCH, DONATION_DELETED, PATTERN_NOT_LEARNED for an intent type.
    mutating func donationReasons(intent: String, widgetParameters: [String: String]?) -> [Reason] {
        var all = donations(of: intent)
        guard !all.isEmpty else { return [] }
        all.sort { $0.seq < $1.seq }
        var out = [Reason]()
        var matching = all
        if let widgetParameters {
            matching = all.filter { parametersMatch(donated: $0.parameters, widget: widgetParameters) }
            if matching.isEmpty, let usage = all.last {
                let key = usage.parameters.keys.sorted().first { widgetParameters[$0] != usage.parameters[$0] } ?? "?"
                out.append(
                    Reason(
                        .donationNoMatch, .documented, "D1",
                        "the donations' \(key) is \(usage.parameters[key] ?? "unset"); the widget's is \(widgetParameters[key] ?? "unset")",
                        events: all.suffix(3).map(\.seq)))
                return out
            }
        }
        let deleted = matching.filter { $0.deletedBy != nil }
        if !deleted.isEmpty {
            out.append(
                Reason(
                    .donationDeleted, .documented, "D4", "\(deleted.count) matching donations were deleted",
                    events: deleted.compactMap(\.deletedBy) + deleted.suffix(3).map(\.seq)))
        }
        let hour = state.clock.hour(at: state.now)
        let live = matching.filter { $0.deletedBy == nil && $0.hour == hour }
        if live.count < parameters.usagePatternMinimum {
            out.append(
                Reason(
                    .patternNotLearned, .policy, "usagePatternMinimum",
                    "\(live.count) matching donations in this local hour within \(parameters.usagePatternWindowDays) days; a pattern needs \(parameters.usagePatternMinimum)",
                    events: live.map(\.seq)))
        }
        return out
    }

    /// PERMISSION_MISSING and NO_ACTIVE_RELEVANCE for RelevanceKit signals of a kind.
    mutating func contextReasons(app: String, kind: String) -> [Reason] {
        var out = [Reason]()
        var anyMatchTime = false
        for (signal, seq) in contextSignals(app: app, kind: kind) {
            guard let clue = signal.clue else { continue }
            let (ok, events, missing) = matches(clue, app: app)
            if ok { anyMatchTime = true }
            if let missing {
                out.append(
                    Reason(
                        .permissionMissing, .documented, "W3",
                        "\(describe(clue)) matches, but \(app) lacks the \(missing) permission", events: [seq] + events)
                )
            }
        }
        if !anyMatchTime && out.isEmpty && !contextSignals(app: app, kind: kind).isEmpty {
            out.append(
                Reason(
                    .noActiveRelevance, .documented, "W2", "none of its contexts matches the person's context now",
                    events: contextSignals(app: app, kind: kind).map(\.1)))
        }
        return out
    }

    /// The app and kind a query names (a kind, or an instance id seen in any stack).
    func resolve(_ query: String) -> (String, String) {
        for stack in state.stacks {
            if let member = stack.members.first(where: { $0.widget.instance == query || $0.widget.kind == query }) {
                return (member.widget.app, member.widget.kind)
            }
        }
        if query.hasPrefix("sys:"), let slash = query.lastIndex(of: "/") {
            var kind = String(query[query.index(after: slash)...])
            if let hash = kind.firstIndex(of: "#") { kind = String(kind[..<hash]) }
            return (String(query[query.index(query.startIndex, offsetBy: 4)..<slash]), kind)
        }
        for (app, set) in state.shortcutSets.entries where set.shortcuts.contains(where: { $0.kind == query }) {
            return (app, query)
        }
        for (app, set) in state.intentSets.entries where set.signals.contains(where: { $0.kind == query }) {
            return (app, query)
        }
        for key in state.declarations.keys.sorted() + state.invalidations.keys.sorted() where key.hasSuffix("/" + query)
        {
            return (String(key.dropLast(query.count + 1)), query)
        }
        for home in state.intentHomes.values.sorted(by: { ($0.app, $0.kind) < ($1.app, $1.kind) })
        where home.kind == query { return (home.app, query) }
        for key in state.timelines.listKeys.sorted() where key.kind == query { return (key.app, query) }
        return ("", query)
    }
}

import Ledger

extension DeviceEngine {
    /// The strongest signal that makes a member of a stack a Smart Rotate candidate now,
    /// or nil, from the cache while it holds.
    mutating func memberCandidate(stack i: Int, member j: Int) -> Candidate? {
        if let cached = memberCache[stack: i, member: j], state.now < cached.validUntil,
           cached.contextVersion.map({ $0 == contextVersion }) ?? true {
            return cached.candidate
        }
        var entry = CachedCandidate(candidate: nil, validUntil: .max)
        entry.candidate = computeMemberCandidate(isWatch: state.stacks[i].isWatch, state.stacks[i].members[j], &entry)
        memberCache[stack: i, member: j] = entry
        return entry.candidate
    }

    /// The strongest signal of a member now, and the first instant at which it may change
    /// by the passing of time alone. Platform rules: timeline relevance and donations act
    /// on iOS and iPadOS (P2); RelevanceKit acts on watchOS (P1).
    mutating func computeMemberCandidate(isWatch: Bool, _ m: Member, _ deps: inout CachedCandidate) -> Candidate? {
        var best: Candidate?
        // The best rank so far, kept apart so that comparing does not copy `best`.
        var bestRank = -Double.infinity
        var until = Int64.max
        defer { deps.validUntil = until }
        let w = m.widget
        if !isWatch || p.watchUsesEntryRelevance {
            let (active, next) = state.timelines.evaluate(app: w.app, kind: w.kind, instance: w.instance, at: state.now, windowMicros: windowMicros)
            until = next
            if let (r, duration) = active {
                best = Candidate(widget: w, rank: r.normalized, signal: .relevance(r, rule: duration > 0 ? "R7" : "R6"), source: "relevance")
                bestRank = r.normalized
            }
        }
        if !isWatch {
            var pattern: UsageEvidence?
            if let intent = m.intent {
                let evidence = memberPattern(instance: w.instance, intent: intent, parameters: m.parameters)
                until = min(until, evidence.until)
                pattern = evidence
            }
            if let set = state.shortcutSets[w.app], p.relevantShortcutsRotateMembers {
                for s in set.shortcuts where s.kind == w.kind {
                    if s.providers.isEmpty {
                        until = min(until, appUsage(w.app).until)
                    }
                    deps.contextVersion = contextVersion
                    for clue in s.providers { until = min(until, clue.nextBoundary(after: state.now)) }
                }
            }
            if let intent = m.intent, let evidence = pattern?.seqs, bestRank < p.usagePatternRank {
                if !evidence.isEmpty {
                    best = Candidate(widget: w, rank: p.usagePatternRank, signal: .pattern(intent: intent, evidence: evidence, suggestion: false),
                                     source: "pattern")
                    bestRank = p.usagePatternRank
                }
            }
            if p.relevantShortcutsRotateMembers, bestRank < p.relevantShortcutRank,
               let signal = openShortcut(app: w.app, kind: w.kind, forSuggestion: false, member: true) {
                best = Candidate(widget: w, rank: p.relevantShortcutRank, signal: signal, source: "shortcut")
                bestRank = p.relevantShortcutRank
            }
        } else {
            deps.contextVersion = contextVersion
            for (signal, setSeq) in contextSignals(app: w.app, kind: w.kind) {
                if let clue = signal.clue { until = min(until, clue.nextBoundary(after: state.now)) }
                if let intent = signal.intent, let params = signal.parameters, intent == m.intent,
                   !parametersMatch(donated: params, widget: m.parameters) { continue }
                guard let clue = signal.clue else { continue }
                let (ok, events, _) = matches(clue, app: w.app)
                let rank = contextRank(clue)
                guard ok, bestRank < rank else { continue }
                best = Candidate(widget: w, rank: rank, signal: .context(clue: clue, events: [setSeq] + events, what: "relevance clue", card: 1, rule: "W2"),
                                 source: "context")
                bestRank = rank
            }
        }
        return best
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

    /// The app's relevant shortcut for `kind` whose providers say it is relevant now.
    /// Providers combine with "any"; for suggestions only the policy's provider types count.
    mutating func openShortcut(app: String, kind: String, forSuggestion: Bool, member: Bool) -> Signal? {
        guard let set = state.shortcutSets[app] else { return nil }
        for s in set.shortcuts where s.kind == kind {
            if s.providers.isEmpty {
                guard !forSuggestion || p.suggestionProviders.contains("empty") else { continue }
                let evidence = appUsage(app).seqs
                if !evidence.isEmpty {
                    return .shortcut(setSeq: set.seq, clue: nil, events: [set.seq] + evidence, usage: evidence.count, member: member)
                }
                continue
            }
            for (clue, type) in zip(s.providers, s.providerTypes) {
                if forSuggestion && !p.suggestionProviders.contains(type) { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok { return .shortcut(setSeq: set.seq, clue: clue, events: [set.seq] + events, usage: 0, member: member) }
            }
        }
        return nil
    }

    /// Whether a kind fits a stack's family (`widget.declared`; undeclared kinds fit any).
    func fits(app: String, kind: String, family: String) -> Bool {
        guard let d = state.declarations[DeviceModel.appKind(app, kind)] else { return true }
        return d.families.contains(family)
    }

    /// Whether any stack of the device holds the kind as a member.
    func held(app: String, kind: String) -> Bool {
        state.stacks.contains { s in s.members.contains { $0.widget.kind == kind && $0.widget.app == app } }
    }

    /// The stack a system-placed widget of this kind goes to: the first (in creation
    /// order) of the right platform whose suggestions are on and whose family fits.
    func targetStack(app: String, kind: String, watch: Bool) -> Int? {
        state.stacks.firstIndex { $0.isWatch == watch && $0.widgetSuggestions && fits(app: app, kind: kind, family: $0.family) }
    }

    func format(_ d: Double) -> String {
        var w = CanonicalWriter(capacity: 16)
        w.number((d * 10_000).rounded() / 10_000)
        return w.text
    }
}

import Ledger

extension DeviceEngine {
    /// The strongest signal that makes a member of a stack a Smart Rotate candidate now,
    /// or nil. Platform rules: timeline relevance and donations act on iOS and iPadOS
    /// (P2); RelevanceKit acts on watchOS (P1).
    mutating func memberCandidate(_ stack: StackState, _ m: Member) -> Candidate? {
        var best: Candidate?
        func offer(_ c: Candidate) {
            if best == nil || c.rank > best!.rank { best = c }
        }
        let w = m.widget
        let usesEntryRelevance = !stack.isWatch || p.watchUsesEntryRelevance
        if usesEntryRelevance, let r = state.timelines.active(app: w.app, kind: w.kind, instance: w.instance, at: state.now, windowMicros: windowMicros) {
            let window = r.until.map { "\(state.clock.clockText(r.since.microseconds))-\(state.clock.clockText($0.microseconds))" }
                ?? "from \(state.clock.clockText(r.since.microseconds)) until the next entry with relevance"
            let rule = r.until == nil || (state.timelines.lastEntry(app: w.app, kind: w.kind, instance: w.instance, at: state.now)?.duration ?? 0) == 0 ? "R6" : "R7"
            var reasons = [Reason("RELEVANCE_SCORE", .documented, rule,
                                  "score \(format(r.score)) (normalised \(format(r.normalized)) among the app's own scores), active \(window)",
                                  events: [r.event])]
            if stack.isWatch {
                reasons.append(Reason("RELEVANCE_SCORE", .policy, "watchUsesEntryRelevance", "timeline relevance counted on watchOS by policy", events: [r.event]))
            }
            offer(Candidate(widget: w, rank: r.normalized, relevance: r, source: "relevance", reasons: reasons))
        }
        if !stack.isWatch {
            if let intent = m.intent {
                let evidence = patternEvidence(intent: intent, app: nil, matching: m.parameters)
                if !evidence.isEmpty {
                    offer(Candidate(widget: w, rank: p.usagePatternRank, relevance: nil, source: "pattern:" + intent, reasons: [
                        Reason("DONATION_PATTERN", .documented, "D2",
                               "\(evidence.count) matching \(intent) donations at this hour of day; the widget's configuration matches them", events: evidence),
                        Reason("DONATION_PATTERN", .policy, "usagePatternMinimum",
                               "a pattern needs \(p.usagePatternMinimum) donations in the same local hour within \(p.usagePatternWindowDays) days", events: evidence),
                    ]))
                }
            }
            if p.relevantShortcutsRotateMembers, let (set, shortcut, events, detail) = openShortcut(app: w.app, kind: w.kind) {
                offer(Candidate(widget: w, rank: p.relevantShortcutRank, relevance: nil, source: "shortcut:\(set)", reasons: [
                    Reason("RELEVANT_SHORTCUT", .documented, shortcut.providers.isEmpty ? "S5" : "S6", detail, events: events),
                    Reason("RELEVANT_SHORTCUT", .policy, "relevantShortcutsRotateMembers", "an open relevant shortcut also rotates a widget already in the stack", events: events),
                ]))
            }
        } else {
            for (signal, setSeq) in contextSignals(app: w.app) where signal.kind == w.kind {
                if let intent = signal.intent, let params = signal.parameters, intent == m.intent,
                   !parametersMatch(donated: params, widget: m.parameters) { continue }
                guard let clue = signal.clue else { continue }
                let (ok, events, _) = matches(clue, app: w.app)
                guard ok else { continue }
                offer(Candidate(widget: w, rank: contextRank(clue), relevance: nil, source: "context:\(setSeq)", reasons: [
                    Reason("RELEVANT_CONTEXT", .documented, "W2", "\(describe(clue)) matches the person's context", events: [setSeq] + events),
                ]))
            }
        }
        return best
    }

    /// The app's relevant intents and its kinds' relevance attributes, with the event
    /// that set each.
    func contextSignals(app: String) -> [(ContextSignal, UInt64)] {
        var out = [(ContextSignal, UInt64)]()
        if let set = state.intentSets[app] { out += set.signals.map { ($0, set.seq) } }
        for key in state.attributeSets.keys.sorted() where key.hasPrefix(app + "/") {
            let set = state.attributeSets[key]!
            out += set.signals.map { ($0, set.seq) }
        }
        return out
    }

    /// The app's relevant shortcut for `kind` whose providers say it is relevant now:
    /// (set seq, shortcut, events, detail). Providers combine with "any".
    mutating func openShortcut(app: String, kind: String, forSuggestion: Bool = false) -> (UInt64, StoredShortcut, [UInt64], String)? {
        guard let set = state.shortcutSets[app] else { return nil }
        for s in set.shortcuts where s.kind == kind {
            if s.providers.isEmpty {
                guard !forSuggestion || p.suggestionProviders.contains("empty") else { continue }
                let evidence = patternEvidence(intent: nil, app: app, matching: nil)
                if !evidence.isEmpty {
                    return (set.seq, s, [set.seq] + evidence,
                            "relevant shortcut with no providers; the app's usage at this hour (\(evidence.count) uses) stands in")
                }
                continue
            }
            for (clue, type) in zip(s.providers, s.providerTypes) {
                if forSuggestion && !p.suggestionProviders.contains(type) { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok { return (set.seq, s, [set.seq] + events, "relevant shortcut, \(describe(clue))") }
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
        state.stacks.contains { s in s.members.contains { $0.widget.app == app && $0.widget.kind == kind } }
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

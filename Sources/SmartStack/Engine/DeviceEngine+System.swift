import Ledger

extension DeviceEngine {
    /// Every widget the system would place now, each with the stack it goes to: Widget
    /// Suggestions on iOS and iPadOS (G2, S1-S9, D3), relevance cards on watchOS (W2-W5).
    /// Kinds a stack already holds as a member are not placed (ALREADY_IN_STACK).
    mutating func systemCandidates() -> [(stack: Int, candidate: Candidate)] {
        var out = [(Int, Candidate)]()
        let hasPhone = state.stacks.contains { !$0.isWatch }
        let hasWatch = state.stacks.contains { $0.isWatch }
        if hasPhone { out += phoneSuggestions() }
        if hasWatch { out += watchCards() }
        return out
    }

    /// Widget Suggestions: relevant shortcuts (S1-S9), donation patterns (D3), and on iOS 17
    /// by policy relevant intents (P3).
    mutating func phoneSuggestions() -> [(Int, Candidate)] {
        var out = [(Int, Candidate)]()
        var seen = Set<String>()
        func offer(app: String, kind: String, _ make: (WidgetIdentity) -> Candidate) {
            let key = DeviceModel.appKind(app, kind)
            guard !seen.contains(key), !held(app: app, kind: kind), let target = targetStack(app: app, kind: kind, watch: false) else { return }
            seen.insert(key)
            out.append((target, make(WidgetIdentity(instance: "sys:" + key, kind: kind, app: app))))
        }
        for app in state.shortcutSets.keys.sorted() {
            let set = state.shortcutSets[app]!
            for s in set.shortcuts {
                guard let (seq, shortcut, events, detail) = openShortcut(app: app, kind: s.kind, forSuggestion: true) else { continue }
                offer(app: app, kind: s.kind) { w in
                    Candidate(widget: w, rank: p.relevantShortcutRank, relevance: nil, source: "shortcut:\(seq)", reasons: [
                        Reason("RELEVANT_SHORTCUT", .documented, shortcut.providers.isEmpty ? "S5" : "S6", detail, events: events),
                    ])
                }
            }
        }
        // D3: a learned pattern for an intent whose widget is not in any stack.
        var patterns = [String: (IntentHome, [UInt64])]()
        for u in state.usage where u.deletedBy == nil {
            guard let intent = u.intent, let home = state.intentHomes[intent] else { continue }
            let key = intent + "\u{1F}" + u.parameters.keys.sorted().map { $0 + "=" + u.parameters[$0]! }.joined(separator: "&")
            if patterns[key] == nil {
                let evidence = patternEvidence(intent: intent, app: nil, matching: u.parameters)
                patterns[key] = (home, evidence)
            }
        }
        for key in patterns.keys.sorted() {
            let (home, evidence) = patterns[key]!
            guard !evidence.isEmpty else { continue }
            offer(app: home.app, kind: home.kind) { w in
                Candidate(widget: w, rank: p.usagePatternRank, relevance: nil, source: "pattern:" + key, reasons: [
                    Reason("DONATION_PATTERN", .documented, "D3",
                           "\(evidence.count) donations at this hour of day and no matching widget in a stack: suggested configured with the donated values", events: evidence),
                    Reason("DONATION_PATTERN", .policy, "usagePatternMinimum",
                           "a pattern needs \(p.usagePatternMinimum) donations in the same local hour within \(p.usagePatternWindowDays) days", events: evidence),
                ])
            }
        }
        if isIOS17() && p.relevantIntentsOnIOS17 {
            for app in state.intentSets.keys.sorted() {
                let set = state.intentSets[app]!
                for signal in set.signals {
                    guard let clue = signal.clue else { continue }
                    let (ok, events, _) = matches(clue, app: app)
                    guard ok else { continue }
                    offer(app: app, kind: signal.kind) { w in
                        Candidate(widget: w, rank: contextRank(clue), relevance: nil, source: "intents:\(set.seq)", reasons: [
                            Reason("RELEVANT_CONTEXT", .documented, "P3", "relevant intent, \(describe(clue)), informs suggestions on iOS 17", events: [set.seq] + events),
                            Reason("RELEVANT_CONTEXT", .policy, "relevantIntentsOnIOS17", "iOS 17 logs follow the older documentation", events: [set.seq]),
                        ])
                    }
                }
            }
        }
        return out
    }

    /// watchOS relevance cards: relevant intents (W1) and relevance attributes whose
    /// context matches (W2), permissions checked (W3), one per group (W4), one card per
    /// matching clue for a relevance widget (W5).
    mutating func watchCards() -> [(Int, Candidate)] {
        var raw = [(Int, Candidate)]()
        var perKind = [String: Int]()
        func add(app: String, kind: String, clue: Clue, group: String?, source: String, events: [UInt64], rule: String, what: String) {
            let key = DeviceModel.appKind(app, kind)
            guard !held(app: app, kind: kind), let target = targetStack(app: app, kind: kind, watch: true) else { return }
            let isRelevanceWidget = state.declarations[key]?.configuration == "relevance"
            let n = (perKind[key] ?? 0) + 1
            // A timeline widget shows one card; a relevance widget one per matching clue.
            if n > 1 && !isRelevanceWidget { return }
            perKind[key] = n
            let instance = "sys:" + key + (n > 1 ? "#\(n)" : "")
            let detail = "\(what), \(describe(clue)), matches the person's context"
            var reasons = [Reason("RELEVANT_CONTEXT", .documented, "W2", detail, events: events)]
            if n > 1 { reasons.append(Reason("RELEVANT_CONTEXT", .documented, "W5", "a relevance widget shows one card per matching clue", events: events)) }
            raw.append((target, Candidate(widget: WidgetIdentity(instance: instance, kind: kind, app: app), rank: contextRank(clue), relevance: nil,
                                          source: source, reasons: reasons, group: group)))
        }
        for app in state.intentSets.keys.sorted() {
            let set = state.intentSets[app]!
            for (i, signal) in set.signals.enumerated() {
                guard let clue = signal.clue else { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok {
                    add(app: app, kind: signal.kind, clue: clue, group: signal.group, source: "intents:\(set.seq):\(i)",
                        events: [set.seq] + events, rule: "W1", what: "relevant intent \(signal.intent ?? "")")
                }
            }
        }
        for key in state.attributeSets.keys.sorted() {
            let set = state.attributeSets[key]!
            let app = String(key[..<key.lastIndex(of: "/")!])
            for (i, signal) in set.signals.enumerated() {
                guard let clue = signal.clue else { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok {
                    add(app: app, kind: signal.kind, clue: clue, group: signal.group, source: "attributes:\(set.seq):\(i)",
                        events: [set.seq] + events, rule: "W2", what: "relevance attribute")
                }
            }
        }
        return raw
    }
}

import RecordFormat

extension DeviceEngine {
    /// Every widget the system would place now, each with the stack it goes to: Widget
    /// Suggestions on iOS and iPadOS (G2, S1-S9, D3), relevance cards on watchOS (W2-W5).
    /// Kinds a stack already holds as a member are not placed (ALREADY_IN_STACK).
    mutating func systemCandidates() -> [(stack: Int, candidate: Candidate)] {
        var out = [(stack: Int, candidate: Candidate)]()
        if state.stacks.suggesting.phone > 0 { phoneSuggestions(&out) }
        if state.stacks.suggesting.watch > 0 { watchCards(&out) }
        return out
    }

    /// Widget Suggestions: relevant shortcuts (S1-S9), donation patterns (D3), and on iOS 17
    /// by policy relevant intents (P3).
    mutating func phoneSuggestions(_ out: inout [(stack: Int, candidate: Candidate)]) {
        if caches.suggestionPlan.epoch != caches.placementEpoch {
            caches.suggestionPlan = SuggestionPlan(state, epoch: caches.placementEpoch)
        }
        var placed = IndexMarks(count: caches.suggestionPlan.widgets.count)
        let plan = caches.suggestionPlan
        for shortcut in plan.shortcuts {
            guard !placed[shortcut.kind], let target = plan.targets[shortcut.kind],
                let set = state.shortcutSets[shortcut.app],
                let opening = openingShortcut(
                    in: set, app: shortcut.app, kind: plan.widgets[shortcut.kind].kind, forSuggestion: true)
            else { continue }
            placed[shortcut.kind] = true
            out.append(
                (
                    target,
                    Candidate(
                        widget: plan.widgets[shortcut.kind], rank: parameters.relevantShortcutRank,
                        signal: opening.signal(set: set, member: false),
                        source: "shortcut:\(set.seq)")
                ))
        }
        // D3: a learned pattern for an intent whose widget is not in any stack.
        for pattern in plan.openIntents.isEmpty ? [] : usagePatterns(of: plan.openIntents, epoch: plan.epoch) {
            guard let intent = state.usage[caches.usage.hour][pattern.record].intent,
                let kind = plan.intentKinds[intent],
                !placed[kind], let target = plan.targets[kind]
            else { continue }
            placed[kind] = true
            out.append(
                (
                    target,
                    Candidate(
                        widget: plan.widgets[kind], rank: parameters.usagePatternRank,
                        signal: .pattern(intent: intent, evidence: pattern.evidence, suggestion: true),
                        source: "pattern:" + pattern.key)
                ))
        }
        if parameters.relevantIntentsOnIOS17 && isIOS17() {
            var seen = Set(
                plan.widgets.indices.filter { placed[$0] }.map {
                    DeviceModel.appKind(plan.widgets[$0].app, plan.widgets[$0].kind)
                })
            func place(app: String, kind: String) -> (Int, WidgetIdentity)? {
                let key = DeviceModel.appKind(app, kind)
                guard !seen.contains(key), !state.holdsAsMember(app: app, kind: kind),
                    let target = targetStack(app: app, kind: kind, watch: false)
                else { return nil }
                seen.insert(key)
                return (target, WidgetIdentity(instance: "sys:" + key, kind: kind, app: app))
            }
            for (app, set) in state.intentSets.entries {
                for signal in set.signals {
                    guard let clue = signal.clue, !state.holdsAsMember(app: app, kind: signal.kind) else { continue }
                    let (ok, events, _) = matches(clue, app: app)
                    guard ok, let (target, w) = place(app: app, kind: signal.kind) else { continue }
                    out.append(
                        (
                            target,
                            Candidate(
                                widget: w, rank: contextRank(clue),
                                signal: .context(
                                    clue: clue, events: [set.seq] + events,
                                    what: "relevant intent \(signal.intent ?? "")", card: 1, rule: "P3"),
                                source: "intents:\(set.seq)")
                        ))
                }
            }
        }
    }

    /// watchOS relevance cards: relevant intents (W1) and relevance attributes whose
    /// context matches (W2), permissions checked (W3), one card per matching clue for a
    /// relevance widget (W5). Groups (W4) are applied when cards are placed.
    mutating func watchCards(_ out: inout [(stack: Int, candidate: Candidate)]) {
        var perKind = [String: Int]()
        func add(app: String, signal: ContextSignal, clue: Clue, source: String, events: [UInt64], what: String) {
            guard !state.holdsAsMember(app: app, kind: signal.kind) else { return }
            let key = DeviceModel.appKind(app, signal.kind)
            let declaration = state.declarations[key]
            guard let target = state.targetStack(watch: true, declaration: declaration) else { return }
            let isRelevanceWidget = declaration?.configuration == "relevance"
            let cardNumber = (perKind[key] ?? 0) + 1
            // A timeline widget shows one card; a relevance widget one per matching clue.
            if cardNumber > 1 && !isRelevanceWidget { return }
            perKind[key] = cardNumber
            // A card keeps its instance while its clue matches; a new one takes the first free number.
            let shown = state.stacks[target].suggestions
            let instance: String
            if let same = shown.first(where: { $0.source == source }) {
                instance = same.widget.instance
            } else {
                let taken = Set(
                    shown.filter { $0.widget.app == app && $0.widget.kind == signal.kind }.map(\.widget.instance)
                )
                .union(out.map(\.candidate.widget.instance))
                var suffix = 1
                while taken.contains("sys:" + key + (suffix > 1 ? "#\(suffix)" : "")) { suffix += 1 }
                instance = "sys:" + key + (suffix > 1 ? "#\(suffix)" : "")
            }
            let widget = WidgetIdentity(instance: instance, kind: signal.kind, app: app)
            out.append(
                (
                    target,
                    Candidate(
                        widget: widget, rank: contextRank(clue),
                        signal: .context(clue: clue, events: events, what: what, card: cardNumber, rule: "W2"),
                        source: source, group: signal.group)
                ))
        }
        // By index: a signal is read in place, and copied only when it makes a card.
        for (app, set) in state.intentSets.entries {
            for signalIndex in set.signals.indices {
                guard let clue = set.signals[signalIndex].clue else { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok {
                    add(
                        app: app, signal: set.signals[signalIndex], clue: clue,
                        source: "intents:\(set.seq):\(signalIndex)",
                        events: [set.seq] + events,
                        what: "relevant intent \(set.signals[signalIndex].intent ?? "")")
                }
            }
        }
        for (key, set) in state.attributeSets.entries {
            let app = String(key[..<key.lastIndex(of: "/")!])
            for signalIndex in set.signals.indices {
                guard let clue = set.signals[signalIndex].clue else { continue }
                let (ok, events, _) = matches(clue, app: app)
                if ok {
                    add(
                        app: app, signal: set.signals[signalIndex], clue: clue,
                        source: "attributes:\(set.seq):\(signalIndex)",
                        events: [set.seq] + events, what: "relevance attribute")
                }
            }
        }
    }
}

/// What Widget Suggestions can place, worked out from the stacks, the relevant shortcut
/// sets, the intents' homes and the declarations (derived): rebuilt when an event that
/// can change them applies (`caches.placementEpoch`), not at every evaluation.
final class SuggestionPlan: Sendable {
    let epoch: UInt64
    /// The kinds no stack holds, each as the widget it would be placed as, and the stack
    /// each goes to (apart: most evaluations look at the stack only).
    let widgets: [WidgetIdentity]
    let targets: [Int?]
    /// The kinds no stack holds that relevant shortcuts name, in set order, each once per
    /// set: app and kind (index into `widgets`).
    let shortcuts: [(app: String, kind: Int)]
    /// Intents whose home kind no stack holds, and that kind.
    let intentKinds: SortedTable<Int>
    let openIntents: IntentList

    /// No plan yet: its epoch matches none.
    init() {
        (epoch, widgets, targets, shortcuts, intentKinds, openIntents) = (.max, [], [], [], SortedTable(), IntentList())
    }

    /// The plan for `state` as of `epoch`.
    init(_ state: borrowing DeviceModel, epoch: UInt64) {
        var widgets = [WidgetIdentity]()
        var targets = [Int?]()
        var shortcuts = [(app: String, kind: Int)]()
        var intentKinds = SortedTable<Int>()
        // A device has few kinds to place: they are looked for one by one.
        func kind(app: String, kind: String) -> Int {
            if let i = widgets.firstIndex(where: { $0.kind == kind && $0.app == app }) { return i }
            let key = DeviceModel.appKind(app, kind)
            widgets.append(WidgetIdentity(instance: "sys:" + key, kind: kind, app: app))
            targets.append(state.targetStack(watch: false, declaration: state.declarations[key]))
            return widgets.count - 1
        }
        for (app, set) in state.shortcutSets.entries {
            // One entry per kind: `openingShortcut` looks at all of a kind's shortcuts at once.
            var listed = [String]()
            for s in set.shortcuts where !listed.contains(s.kind) && !state.holdsAsMember(app: app, kind: s.kind) {
                listed.append(s.kind)
                shortcuts.append((app, kind(app: app, kind: s.kind)))
            }
        }
        var open = [String]()
        for (intent, home) in state.intentHomes.entries where !state.holdsAsMember(app: home.app, kind: home.kind) {
            intentKinds[intent] = kind(app: home.app, kind: home.kind)
            open.append(intent)
        }
        (self.epoch, self.widgets, self.targets, self.shortcuts, self.intentKinds, openIntents) = (
            epoch, widgets, targets, shortcuts, intentKinds, IntentList(open)
        )
    }
}

extension DeviceModel {
    /// Whether any stack of the device holds the kind as a member (suggestions aside).
    func holdsAsMember(app: String, kind: String) -> Bool {
        stacks.contains { s in s.members.contains { $0.widget.kind == kind && $0.widget.app == app } }
    }

    /// The stack a system-placed widget goes to, given its kind's declaration: the first
    /// (in creation order) of the right platform whose suggestions are on and whose family
    /// fits (`widget.declared`; an undeclared kind fits any).
    func targetStack(watch: Bool, declaration: Declaration?) -> Int? {
        stacks.firstIndex { stack in
            stack.isWatch == watch && stack.widgetSuggestions
                && (declaration.map { $0.families.contains(stack.family) } ?? true)
        }
    }
}

/// Marks on the indices `0..<count`, kept in one word while they fit (a device's kinds
/// mostly do), so that marking them allocates nothing.
struct IndexMarks {
    private var word: UInt64 = 0
    private var more: [Bool] = []

    init(count: Int) {
        if count > 64 { more = [Bool](repeating: false, count: count) }
    }

    subscript(i: Int) -> Bool {
        get { more.isEmpty ? word & (1 << UInt64(i)) != 0 : more[i] }
        set {
            if !more.isEmpty {
                more[i] = newValue
            } else if newValue {
                word |= 1 << UInt64(i)
            } else {
                word &= ~(1 << UInt64(i))
            }
        }
    }
}

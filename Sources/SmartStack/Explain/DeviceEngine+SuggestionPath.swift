import RecordFormat

extension DeviceEngine {
    /// Whether one of the kind's clues matches now but lacks its permission (so the
    /// blocking reason is the permission, not the absence of relevance).
    func clueLiveButBlocked(app: String, kind: String, watch: Bool) -> Bool {
        if watch {
            return contextSignals(app: app, kind: kind).contains { signal in
                signal.0.clue.map { matches($0, app: app).missingPermission != nil } ?? false
            }
        }
        guard let set = state.shortcutSets[app] else { return false }
        return set.shortcuts.contains { shortcut in
            shortcut.kind == kind && shortcut.providers.contains { matches($0, app: app).missingPermission != nil }
        }
    }

    /// Why a kind that the stack at `stackIndex` does not hold is not suggested there, in the documented
    /// order: the first blocking reason, then every other that applies. Empty when
    /// nothing blocks it.
    mutating func suggestionPath(stack stackIndex: Int, app: String, kind: String, candidate: Candidate?) -> [Reason] {
        let stack = state.stacks[stackIndex]
        var out = stackBlocks(stack, app: app, kind: kind)
        let context = contextSignals(app: app, kind: kind)
        let shortcut = state.shortcutSets[app].flatMap { set in set.shortcuts.contains { $0.kind == kind } ? set : nil }
        if !stack.isWatch && !context.isEmpty && !(parameters.relevantIntentsOnIOS17 && isIOS17()) {
            out.append(
                Reason(
                    .platformIgnoresSignal, .documented, "P1",
                    "RelevanceKit signals act on watchOS only; this stack is on \(stack.platform)",
                    events: context.map(\.1)))
        }
        if stack.isWatch && shortcut != nil {
            out.append(
                Reason(
                    .platformIgnoresSignal, .documented, "P2",
                    "relevant shortcuts for widgets drive Widget Suggestions on iOS and iPadOS", events: [shortcut!.seq]
                ))
        }
        if candidate == nil && !clueLiveButBlocked(app: app, kind: kind, watch: stack.isWatch) {
            out.append(
                Reason(
                    .noActiveRelevance, .documented, stack.isWatch ? "W2" : "G2",
                    "no window, clue or pattern for \(kind) is active now", events: []))
        }
        if !stack.isWatch {
            out += phoneSignalReasons(app: app, kind: kind, shortcut: shortcut, candidate: candidate)
        } else if candidate == nil {
            out += contextReasons(app: app, kind: kind).filter { $0.code != "NO_ACTIVE_RELEVANCE" }
        }
        return out + placementBlocks(stack, app: app, kind: kind, candidate: candidate)
    }

    /// What the stack itself rules out: Widget Suggestions off, a family it does not hold, no room.
    private mutating func stackBlocks(_ stack: StackState, app: String, kind: String) -> [Reason] {
        var out = [Reason]()
        if !stack.widgetSuggestions {
            out.append(
                Reason(
                    .stackToggleOff, .documented, "G2", "Widget Suggestions are off for \(stack.id)",
                    events: [stack.settingsSeq]))
        }
        if let declaration = state.declarations[DeviceModel.appKind(app, kind)],
            !declaration.families.contains(stack.family)
        {
            out.append(
                Reason(
                    .familyMismatch, .documented, "G2",
                    "\(kind) declares \(declaration.families.joined(separator: ", ")); \(stack.id) holds \(stack.family) widgets",
                    events: [declaration.seq]))
        }
        if stack.members.count + stack.suggestions.count - replacements(in: stack).count
            >= parameters.maxWidgetsPerStack
        {
            out.append(
                Reason(
                    .stackFull, .policy, "maxWidgetsPerStack",
                    "\(stack.id) holds \(parameters.maxWidgetsPerStack) widgets",
                    events: []))
        }
        return out
    }

    /// On iOS: a relevant shortcut invalidated, its providers closed, unsupported or lacking a
    /// permission, and the donations that would make a pattern.
    private mutating func phoneSignalReasons(
        app: String, kind: String, shortcut: ShortcutSet?, candidate: Candidate?
    ) -> [Reason] {
        var out = [Reason]()
        if let inv = state.invalidations[DeviceModel.appKind(app, kind)] {
            out.append(
                Reason(
                    .relevantShortcutInvalidated, .documented, "S3",
                    "the relevant shortcut set at \(state.clock.clockText(inv.time)) omitted \(kind), which the earlier set had",
                    events: [inv.bySeq, inv.previousSeq]))
        }
        if let set = shortcut, candidate == nil {
            for shortcut in set.shortcuts where shortcut.kind == kind && !shortcut.providers.isEmpty {
                out += providerReasons(shortcut, of: set, app: app)
            }
        }
        for (intent, home) in state.intentHomes.entries
        where home.app == app && home.kind == kind && candidate == nil {
            out += donationReasons(intent: intent, widgetParameters: nil)
        }
        return out
    }

    /// Why one relevant shortcut's providers open no suggestion now.
    private mutating func providerReasons(_ shortcut: StoredShortcut, of set: ShortcutSet, app: String) -> [Reason] {
        var out = [Reason]()
        var windows = [String]()
        var unsupported = [String]()
        for (clue, type) in zip(shortcut.providers, shortcut.providerTypes) {
            if !parameters.suggestionProviders.contains(type) {
                unsupported.append(type)
                continue
            }
            if case .window = clue { windows.append(describe(clue)) }
        }
        if !windows.isEmpty {
            out.append(
                Reason(
                    .providerWindowClosed, .documented, "S6",
                    "\(windows.joined(separator: ", ")) is not open at \(state.clock.clockText(state.now))",
                    events: [set.seq]))
        }
        if !unsupported.isEmpty {
            out.append(
                Reason(
                    .providerTypeUnsupported, .policy, "suggestionProviders",
                    "\(unsupported.joined(separator: ", ")) providers do not open Widget Suggestions under this policy",
                    events: [set.seq]))
        }
        for clue in shortcut.providers {
            if case .state = clue, let missing = matches(clue, app: app).missingPermission {
                out.append(
                    Reason(
                        .permissionMissing, .documented, "G4",
                        "\(describe(clue)) matches, but \(app) lacks \(missing)", events: [set.seq]))
            }
        }
        return out
    }

    /// What rules out placing it: a widget of its relevance group shown, the kind already in a
    /// stack, a dismissal's cooldown, the day's cap.
    private mutating func placementBlocks(_ stack: StackState, app: String, kind: String, candidate: Candidate?)
        -> [Reason]
    {
        var out = [Reason]()
        let key = DeviceModel.appKind(app, kind)
        if let chosen = candidate, let group = chosen.group,
            let other = stack.suggestions.first(where: {
                $0.group == group && $0.widget.instance != chosen.widget.instance
            })
        {
            out.append(
                Reason(
                    .groupSuppressed, .documented, "W4", "\(other.widget.kind) of the same relevance group is shown",
                    events: other.reasons.flatMap(\.events)))
        }
        if let holder = state.stacks.first(where: { other in
            other.members.contains { $0.widget.app == app && $0.widget.kind == kind }
        }) {
            let member = holder.members.first { $0.widget.app == app && $0.widget.kind == kind }!
            out.append(
                Reason(
                    .alreadyInStack, .documented, "G2",
                    "\(member.widget.instance) in \(holder.id) is a \(kind) already",
                    events: [member.addedSeq]))
        }
        if let until = stack.dismissedUntil[key], state.now < until {
            out.append(
                Reason(
                    .rateLimited, .policy, "dismissCooldownHours",
                    "the person dismissed \(kind); not suggested again before \(state.clock.clockText(until))",
                    events: []))
        }
        if let cap = parameters.suggestionCapPerWidgetPerDay, limited(.suggestion, key, cap: cap) {
            out.append(
                Reason(
                    .rateLimited, .policy, "suggestionCapPerWidgetPerDay",
                    "suggested \(state.counters[.suggestion, key]) times today (local day); the cap is \(cap)",
                    events: []))
        }
        return out
    }
}

import RecordFormat

// What an app told the system (docs/events.md, "What the app tells the system"): timelines,
// declarations, relevant shortcuts and intents, relevance attributes, reload requests and
// reloads. One `apply` per event type; donations are in DeviceEngine+UsageRules.swift.
extension DeviceEngine {
    /// `widget.timeline`: the kind's entries, relevance and reload policy from now on.
    mutating func apply(_ timeline: WidgetTimeline, seq: UInt64, app: String) -> Work {
        let now = state.now
        state.reloads[TimelineBook.key(app: app, kind: timeline.kind), default: ReloadState()].noteTimeline(
            timeline, at: now, seq: seq)
        let window = windowMicros
        scheduleWakeups(.rotation) { timelines, times in
            timelines.deliver(timeline, app: app, at: now, seq: seq, windowMicros: window, wakeups: &times)
        }
        noteRelevanceChanged(app: app, kind: timeline.kind)
        return .rotation
    }

    /// `widget.declared`: the kind's families and configuration.
    mutating func apply(_ declared: WidgetDeclared, seq: UInt64, app: String) -> Work {
        state.declarations[DeviceModel.appKind(app, declared.kind)] = Declaration(
            families: declared.families, configuration: declared.configuration,
            associatedKind: declared.associatedKind, seq: seq)
        return .all
    }

    /// `relevantShortcuts.set`: the app's set replaces its previous one; S3, a kind the new
    /// set omits is invalidated.
    mutating func apply(_ set: RelevantShortcutsSet, seq: UInt64, app: String) -> Work {
        let previous = state.shortcutSets[app]
        let stored = set.shortcuts.map { shortcut in
            StoredShortcut(
                kind: shortcut.widgetKind, role: shortcut.role, intent: shortcut.intent?.name,
                parameters: shortcut.intent.map { parameterMap($0.parameters) },
                providers: shortcut.relevanceProviders.map(Clue.of),
                providerTypes: shortcut.relevanceProviders.map(Clue.providerType))
        }
        var homeMoved = false
        if let intentShortcut = set.shortcuts.first(where: { $0.intent != nil }),
            let name = intentShortcut.intent?.name
        {
            let home = IntentHome(app: app, kind: intentShortcut.widgetKind)
            homeMoved = state.intentHomes[name] != home
            if homeMoved { state.intentHomes[name] = home }
        }
        // What Widget Suggestions can place depends on the kinds a set names, in order.
        notePlacementKept(!homeMoved && previous.map { $0.shortcuts.map(\.kind) == stored.map(\.kind) } ?? false)
        let kinds = Set(stored.map(\.kind))
        for old in previous?.shortcuts ?? [] where !kinds.contains(old.kind) {
            state.invalidations[DeviceModel.appKind(app, old.kind)] = Invalidation(
                bySeq: seq, time: state.now, previousSeq: previous!.seq)
        }
        for kind in kinds { state.invalidations[DeviceModel.appKind(app, kind)] = nil }
        state.shortcutSets[app] = ShortcutSet(seq: seq, time: state.now, shortcuts: stored)
        schedule(stored.flatMap { $0.providers.flatMap(\.boundaries) })
        return .all
    }

    /// `relevantIntents.set`: the app's relevant intents (watchOS) replace its previous ones.
    mutating func apply(_ set: RelevantIntentsSet, seq: UInt64, app: String) -> Work {
        let signals = set.intents.map { relevantIntent in
            ContextSignal(
                kind: relevantIntent.widgetKind, intent: relevantIntent.intent.name,
                parameters: parameterMap(relevantIntent.intent.parameters),
                clue: Clue.of(relevantIntent.context, policy: parameters), group: defaultGroup(app: app))
        }
        state.intentSets[app] = ContextSet(seq: seq, signals: signals)
        schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        return .all
    }

    /// `widget.relevance`: the kind's relevance attributes replace its previous ones.
    mutating func apply(_ relevance: WidgetRelevanceSet, seq: UInt64, app: String) -> Work {
        let signals = relevance.attributes.map { attribute in
            ContextSignal(
                kind: relevance.kind, intent: attribute.configuration?.name,
                parameters: attribute.configuration.map { parameterMap($0.parameters) },
                clue: attribute.context.flatMap { Clue.of($0, policy: parameters) },
                group: groupKey(attribute.group, app: app))
        }
        state.attributeSets[DeviceModel.appKind(app, relevance.kind)] = ContextSet(seq: seq, signals: signals)
        schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        return .all
    }

    /// `widget.reloadRequested`: changes no decision; `why` reads it (T2, T3).
    mutating func apply(_ request: ReloadRequested, seq: UInt64, app: String) -> Work {
        let keys =
            request.kind.map { [TimelineBook.key(app: app, kind: $0)] }
            ?? state.reloads.keys.filter { $0.app == app }.sorted { $0.kind < $1.kind }
        for key in keys {
            state.reloads[key, default: ReloadState()].requestSeq = seq
            state.reloads[key, default: ReloadState()].requestTime = state.now
        }
        return .none
    }

    /// `widget.reloaded`: changes no decision; `why` reads it.
    mutating func apply(_ reloaded: WidgetReloaded, seq: UInt64, app: String) -> Work {
        state.reloads[TimelineBook.key(app: app, kind: reloaded.kind), default: ReloadState()].noteReload(
            reloaded, at: state.now, seq: seq)
        return .none
    }

    /// `widget.relevanceObserved`, the device's record of a widget's relevance: it feeds the
    /// kind's relevance where the app's own timelines do not speak; not the entry a widget
    /// displays, not reload timing. A record that names only the widget's extension applies
    /// to the app of the members with that extension; with none, to no widget the model holds.
    mutating func apply(_ observed: RelevanceObserved, event: Event, seq: UInt64) -> Work {
        guard
            let app = event.envelope.app
                ?? observed.extensionBundle.flatMap({ ext in
                    state.stacks.lazy.flatMap(\.members).first {
                        $0.extensionBundle == ext && $0.widget.kind == observed.kind
                    }?
                    .widget.app
                })
        else { return .none }
        let now = state.now
        let window = windowMicros
        scheduleWakeups(.rotation) { timelines, times in
            timelines.observe(observed, app: app, at: now, seq: seq, windowMicros: window, wakeups: &times)
        }
        noteRelevanceChanged(app: app, kind: observed.kind)
        return .rotation
    }
}

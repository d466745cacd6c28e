import RecordFormat

extension DeviceEngine {
    /// Applies what an app told the system (docs/events.md, "What the app tells the
    /// system"): timelines, declarations, donations and their deletion, relevant shortcuts
    /// and intents, relevance attributes, reload requests and reloads.
    mutating func applyAppSignal(_ event: Event, seq: UInt64, app: String) -> Work {
        let now = state.now
        switch event.body {
        case .widgetTimeline(let t):
            state.reloads[TimelineBook.key(app: app, kind: t.kind), default: ReloadState()].noteTimeline(
                t, at: now, seq: seq)
            var times = caches.timelineWakeups
            caches.timelineWakeups = []
            times.removeAll(keepingCapacity: true)
            state.timelines.deliver(t, app: app, at: now, seq: seq, windowMicros: windowMicros, wakeups: &times)
            schedule(times, .rotation)
            caches.timelineWakeups = times
            dropCachedMembers(relevance: true) { $0.widget.kind == t.kind && $0.widget.app == app }
            return .rotation
        case .widgetDeclared(let d):
            state.declarations[DeviceModel.appKind(app, d.kind)] = Declaration(
                families: d.families, configuration: d.configuration,
                associatedKind: d.associatedKind, seq: seq)
        case .intentDonated(let d):
            var predicted = [String: String]()
            if let names = d.predictionParameters {
                // Only the predicted ones are rendered (the last member of a name counts).
                let members = d.intent.parameters ?? []
                for n in names {
                    predicted[n] = members.last { $0.key == n }.map { CanonicalWriter.text(of: $0.value) } ?? "null"
                }
            } else {
                predicted = parameterMap(d.intent.parameters)
            }
            let hour = state.clock.hour(at: now)
            // The usage cache, brought up to now, takes the record in instead of being rebuilt.
            refreshUsage()
            state.usage[hour].append(
                UsageRecord(
                    time: now, hour: hour, seq: seq, app: app, intent: d.intent.name,
                    parameters: predicted, donationId: d.donationId, groupIdentifier: d.groupIdentifier))
            caches.usageEdits.touch(day: DeviceModel.usageDay(now))
            state.usageChanged = true
            noteUsageAppended(hour: hour)
            pruneUsage(hour)
            schedule(state.clock.nextHour(after: now))
        case .donationsDeleted(let del):
            for h in 0..<24 {
                for k in state.usage[h].indices
                where state.usage[h][k].app == app && state.usage[h][k].intent != nil
                    && state.usage[h][k].deletedBy == nil
                {
                    let u = state.usage[h][k]
                    let hit: Bool
                    switch del {
                    case .donationIds(let ids): hit = u.donationId.map(ids.contains) ?? false
                    case .intent(let name): hit = u.intent == name
                    case .groupIdentifier(let g): hit = u.groupIdentifier == g
                    case .all: hit = true
                    }
                    if hit {
                        state.usage[h][k].deletedBy = seq
                        caches.usageEdits.counts[h] &+= 1
                        caches.usageEdits.touch(day: DeviceModel.usageDay(u.time))
                    }
                }
            }
            state.usageChanged = true
        case .relevantShortcuts(let set):
            let previous = state.shortcutSets[app]
            let stored = set.shortcuts.map { s in
                StoredShortcut(
                    kind: s.widgetKind, role: s.role, intent: s.intent?.name,
                    parameters: s.intent.map { parameterMap($0.parameters) },
                    providers: s.relevanceProviders.map(Clue.of),
                    providerTypes: s.relevanceProviders.map(Clue.providerType))
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
            caches.placementKept =
                !homeMoved && previous.map { $0.shortcuts.map(\.kind) == stored.map(\.kind) } ?? false
            // S3: a kind omitted from the new set is invalidated.
            let kinds = Set(stored.map(\.kind))
            for old in previous?.shortcuts ?? [] where !kinds.contains(old.kind) {
                state.invalidations[DeviceModel.appKind(app, old.kind)] = Invalidation(
                    bySeq: seq, time: now, previousSeq: previous!.seq)
            }
            for k in kinds { state.invalidations[DeviceModel.appKind(app, k)] = nil }
            state.shortcutSets[app] = ShortcutSet(seq: seq, time: now, shortcuts: stored)
            schedule(stored.flatMap { $0.providers.flatMap(\.boundaries) })
        case .relevantIntents(let set):
            let signals = set.intents.map { e in
                ContextSignal(
                    kind: e.widgetKind, intent: e.intent.name, parameters: parameterMap(e.intent.parameters),
                    clue: Clue.of(e.context, policy: parameters), group: defaultGroup(app: app))
            }
            state.intentSets[app] = ContextSet(seq: seq, signals: signals)
            schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        case .widgetRelevance(let r):
            let signals = r.attributes.map { a in
                ContextSignal(
                    kind: r.kind, intent: a.configuration?.name,
                    parameters: a.configuration.map { parameterMap($0.parameters) },
                    clue: a.context.flatMap { Clue.of($0, policy: parameters) }, group: groupKey(a.group, app: app))
            }
            state.attributeSets[DeviceModel.appKind(app, r.kind)] = ContextSet(seq: seq, signals: signals)
            schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        case .reloadRequested(let r):
            // Reloads change no decision; `why` reads them (T2, T3).
            let keys =
                r.kind.map { [TimelineBook.key(app: app, kind: $0)] }
                ?? state.reloads.keys.filter { $0.app == app }.sorted { $0.kind < $1.kind }
            for key in keys {
                state.reloads[key, default: ReloadState()].requestSeq = seq
                state.reloads[key, default: ReloadState()].requestTime = now
            }
            return .none
        case .widgetReloaded(let r):
            state.reloads[TimelineBook.key(app: app, kind: r.kind), default: ReloadState()].noteReload(
                r, at: now, seq: seq)
            return .none
        default:
            return .none
        }
        return .all
    }
}

extension DeviceEngine {
    /// Applies the device's record of a widget's relevance (`widget.relevanceObserved`):
    /// it feeds the kind's relevance where the app's own timelines do not speak; not the
    /// entry a widget displays, not reload timing. A record that names only the widget's
    /// extension applies to the app of the members with that extension; with none, to no
    /// widget the model holds.
    mutating func applyRelevanceRecord(_ observed: RelevanceObserved, event: Event, seq: UInt64) -> Work {
        guard
            let app = event.envelope.app
                ?? observed.extensionBundle.flatMap({ ext in
                    state.stacks.lazy.flatMap(\.members).first {
                        $0.extensionBundle == ext && $0.widget.kind == observed.kind
                    }?
                    .widget.app
                })
        else { return .none }
        var times = caches.timelineWakeups
        caches.timelineWakeups = []
        times.removeAll(keepingCapacity: true)
        state.timelines.observe(
            observed, app: app, at: state.now, seq: seq, windowMicros: windowMicros, wakeups: &times)
        schedule(times, .rotation)
        caches.timelineWakeups = times
        dropCachedMembers(relevance: true) { $0.widget.kind == observed.kind && $0.widget.app == app }
        return .rotation
    }
}

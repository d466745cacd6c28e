import RecordFormat

extension DeviceEngine {
    /// Applies what an app told the system (docs/events.md, "What the app tells the
    /// system"): timelines, declarations, donations and their deletion, relevant shortcuts
    /// and intents, relevance attributes, reload requests and reloads.
    mutating func applyAppSignal(_ event: Event, seq: UInt64, app: String) -> Work {
        let now = state.now
        switch event.body {
        case .widgetTimeline(let timeline):
            state.reloads[TimelineBook.key(app: app, kind: timeline.kind), default: ReloadState()].noteTimeline(
                timeline, at: now, seq: seq)
            var times = caches.timelineWakeups
            caches.timelineWakeups = []
            times.removeAll(keepingCapacity: true)
            state.timelines.deliver(timeline, app: app, at: now, seq: seq, windowMicros: windowMicros, wakeups: &times)
            schedule(times, .rotation)
            caches.timelineWakeups = times
            dropCachedMembers(relevance: true) { $0.widget.kind == timeline.kind && $0.widget.app == app }
            return .rotation
        case .widgetDeclared(let declared):
            state.declarations[DeviceModel.appKind(app, declared.kind)] = Declaration(
                families: declared.families, configuration: declared.configuration,
                associatedKind: declared.associatedKind, seq: seq)
        case .intentDonated(let donation):
            var predicted = [String: String]()
            if let names = donation.predictionParameters {
                // Only the predicted ones are rendered (the last member of a name counts).
                let members = donation.intent.parameters ?? []
                for name in names {
                    predicted[name] =
                        members.last { $0.key == name }.map { CanonicalWriter.text(of: $0.value) } ?? "null"
                }
            } else {
                predicted = parameterMap(donation.intent.parameters)
            }
            let hour = state.clock.hour(at: now)
            // The usage cache, brought up to now, takes the record in instead of being rebuilt.
            refreshUsage()
            state.usage[hour].append(
                UsageRecord(
                    time: now, hour: hour, seq: seq, app: app, intent: donation.intent.name,
                    parameters: predicted, donationId: donation.donationId, groupIdentifier: donation.groupIdentifier))
            caches.usageEdits.touch(day: DeviceModel.usageDay(now))
            state.usageChanged = true
            noteUsageAppended(hour: hour)
            pruneUsage(hour)
            schedule(state.clock.nextHour(after: now))
        case .donationsDeleted(let del):
            for hour in 0..<24 {
                for index in state.usage[hour].indices
                where state.usage[hour][index].app == app && state.usage[hour][index].intent != nil
                    && state.usage[hour][index].deletedBy == nil
                {
                    let usage = state.usage[hour][index]
                    let hit: Bool
                    switch del {
                    case .donationIds(let ids): hit = usage.donationId.map(ids.contains) ?? false
                    case .intent(let name): hit = usage.intent == name
                    case .groupIdentifier(let group): hit = usage.groupIdentifier == group
                    case .all: hit = true
                    }
                    if hit {
                        state.usage[hour][index].deletedBy = seq
                        caches.usageEdits.counts[hour] &+= 1
                        caches.usageEdits.touch(day: DeviceModel.usageDay(usage.time))
                    }
                }
            }
            state.usageChanged = true
        case .relevantShortcuts(let set):
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
            caches.placementKept =
                !homeMoved && previous.map { $0.shortcuts.map(\.kind) == stored.map(\.kind) } ?? false
            // S3: a kind omitted from the new set is invalidated.
            let kinds = Set(stored.map(\.kind))
            for old in previous?.shortcuts ?? [] where !kinds.contains(old.kind) {
                state.invalidations[DeviceModel.appKind(app, old.kind)] = Invalidation(
                    bySeq: seq, time: now, previousSeq: previous!.seq)
            }
            for kind in kinds { state.invalidations[DeviceModel.appKind(app, kind)] = nil }
            state.shortcutSets[app] = ShortcutSet(seq: seq, time: now, shortcuts: stored)
            schedule(stored.flatMap { $0.providers.flatMap(\.boundaries) })
        case .relevantIntents(let set):
            let signals = set.intents.map { relevantIntent in
                ContextSignal(
                    kind: relevantIntent.widgetKind, intent: relevantIntent.intent.name,
                    parameters: parameterMap(relevantIntent.intent.parameters),
                    clue: Clue.of(relevantIntent.context, policy: parameters), group: defaultGroup(app: app))
            }
            state.intentSets[app] = ContextSet(seq: seq, signals: signals)
            schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        case .widgetRelevance(let relevance):
            let signals = relevance.attributes.map { attribute in
                ContextSignal(
                    kind: relevance.kind, intent: attribute.configuration?.name,
                    parameters: attribute.configuration.map { parameterMap($0.parameters) },
                    clue: attribute.context.flatMap { Clue.of($0, policy: parameters) },
                    group: groupKey(attribute.group, app: app))
            }
            state.attributeSets[DeviceModel.appKind(app, relevance.kind)] = ContextSet(seq: seq, signals: signals)
            schedule(signals.flatMap { $0.clue?.boundaries ?? [] })
        case .reloadRequested(let request):
            // Reloads change no decision; `why` reads them (T2, T3).
            let keys =
                request.kind.map { [TimelineBook.key(app: app, kind: $0)] }
                ?? state.reloads.keys.filter { $0.app == app }.sorted { $0.kind < $1.kind }
            for key in keys {
                state.reloads[key, default: ReloadState()].requestSeq = seq
                state.reloads[key, default: ReloadState()].requestTime = now
            }
            return .none
        case .widgetReloaded(let reloaded):
            state.reloads[TimelineBook.key(app: app, kind: reloaded.kind), default: ReloadState()].noteReload(
                reloaded, at: now, seq: seq)
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

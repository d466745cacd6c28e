import RecordFormat

extension DeviceEngine {
    /// Applies one event to the state; returns what decisions it may change.
    mutating func handle(_ event: Event, seq: UInt64) -> Work {
        let now = state.now
        let app = event.envelope.app ?? ""
        switch event.body {
        case .widgetAdded, .suggestionKept:
            // A member's configuration may be new: the donations matched against the old one go too.
            memberCache.removeAll()
            forgetMemberEvidence()
        case .stackCreated, .stackSettingsChanged, .widgetRemoved, .widgetMoved, .deviceInfo, .developerMode,
            .widgetDeclared,
            .donationsDeleted:
            memberCache.removeAll()
        case .intentDonated(let d):
            // A donation counts for the members configured with its intent (D1) and for
            // its app's usage where a relevant shortcut defers to it (S5).
            let byUsage = kindsDeferringToUsage(app: app)
            dropCachedMembers {
                $0.intent == d.intent.name || ($0.widget.app == app && byUsage.contains($0.widget.kind))
            }
        case .appForeground:
            let byUsage = kindsDeferringToUsage(app: app)
            if !byUsage.isEmpty { dropCachedMembers { $0.widget.app == app && byUsage.contains($0.widget.kind) } }
        case .contextChanged, .permissionChanged:
            contextVersion &+= 1
        case .relevantShortcuts, .relevantIntents, .widgetRelevance:
            dropCachedMembers { $0.widget.app == app }
        default:
            break
        }
        switch event.body {
        case .deviceInfo(let info):
            state.platform = info.platform
            state.osVersion = info.osVersion
            state.deviceInfoSeq = seq
            state.clock.setZone(info.timeZone)
        case .stackCreated(let c):
            if let i = state.stackIndex(c.stack) {
                state.stacks[i].platform = c.platform
                state.stacks[i].family = c.family
                state.stacks[i].smartRotate = c.smartRotate
                state.stacks[i].widgetSuggestions = c.widgetSuggestions
                state.stacks[i].settingsSeq = seq
            } else {
                state.stacks.append(
                    StackState(
                        id: c.stack, platform: c.platform, family: c.family, smartRotate: c.smartRotate,
                        widgetSuggestions: c.widgetSuggestions, createdSeq: seq, settingsSeq: seq))
            }
        case .stackSettingsChanged(let c):
            guard let i = state.stackIndex(c.stack) else { return .none }
            if let r = c.smartRotate { state.stacks[i].smartRotate = r }
            if let s = c.widgetSuggestions { state.stacks[i].widgetSuggestions = s }
            state.stacks[i].settingsSeq = seq
        case .widgetAdded(let a):
            let i = stackIndex(creating: a.stack, family: a.widget.family, seq: seq)
            let w = a.widget
            let member = Member(
                widget: WidgetIdentity(instance: w.instance, kind: w.kind, app: w.app), family: w.family,
                intent: w.configuration?.name, parameters: parameterMap(w.configuration?.parameters), addedSeq: seq)
            if let intent = w.configuration?.name { state.intentHomes[intent] = IntentHome(app: w.app, kind: w.kind) }
            for j in state.stacks.indices { state.stacks[j].members.removeAll { $0.widget.instance == w.instance } }
            var members = state.stacks[i].members
            let at = min(max(a.position ?? members.count, 0), members.count)
            members.insert(member, at: at)
            state.stacks[i].members = members
            if state.stacks[i].top == nil { state.stacks[i].top = w.instance }
        case .widgetRemoved(let r):
            guard let i = state.stackIndex(r.stack) else { return .none }
            state.stacks[i].members.removeAll { $0.widget.instance == r.instance }
            if state.stacks[i].restingTop == r.instance { state.stacks[i].restingTop = nil }
            state.stacks[i].repairTop()
        case .widgetMoved(let m):
            guard let i = state.stackIndex(m.stack),
                let from = state.stacks[i].members.firstIndex(where: { $0.widget.instance == m.instance })
            else { return .none }
            let member = state.stacks[i].members.remove(at: from)
            state.stacks[i].members.insert(member, at: min(max(m.position, 0), state.stacks[i].members.count))
        case .widgetPinned(let s), .widgetUnpinned(let s):
            guard let i = state.stackIndex(s.stack),
                let j = state.stacks[i].members.firstIndex(where: { $0.widget.instance == s.instance })
            else { return .none }
            let w = state.stacks[i].members[j].widget
            if case .widgetUnpinned = event.body {
                state.stacks[i].members[j].pinnedAt = nil
            } else if state.declarations[DeviceModel.appKind(w.app, w.kind)]?.configuration != "relevance",
                state.stacks[i].members[j].pinnedAt == nil
            {
                // W6: it stays where it is shown now; W5: a relevance widget cannot be pinned.
                state.stacks[i].members[j].pinnedAt = state.stacks[i].layout.firstIndex(of: .member(j))
            }
        case .scrolled(let s):
            guard let i = state.stackIndex(s.stack), let target = state.stacks[i].identity(s.instance) else {
                return .none
            }
            let from = state.stacks[i].identity(state.stacks[i].top)
            let hold = now + Int64(parameters.scrollHoldMinutes) * 60_000_000
            state.stacks[i].holdUntil = hold
            schedule(hold)
            let reason = Reason(
                .userScrolled, .policy, "scrollHoldMinutes",
                "the person scrolled the stack to \(target.kind); Smart Rotate waits \(parameters.scrollHoldMinutes) min",
                events: [seq])
            state.stacks[i].top = target.instance
            if state.stacks[i].member(target.instance) != nil { state.stacks[i].restingTop = target.instance }
            record(stack: i, action: .scroll, widget: target, from: from, reasons: [reason])
            return .all
        case .suggestionKept(let k):
            guard let i = state.stackIndex(k.stack),
                let j = state.stacks[i].suggestions.firstIndex(where: { $0.widget.instance == k.instance })
            else { return .none }
            let s = state.stacks[i].suggestions.remove(at: j)
            let home = state.intentHomes.entries.first { $0.1.kind == s.widget.kind && $0.1.app == s.widget.app }?.0
            state.stacks[i].members.insert(
                Member(widget: s.widget, family: state.stacks[i].family, intent: home, parameters: [:], addedSeq: seq),
                at: 0)
        case .suggestionDismissed(let d):
            guard let i = state.stackIndex(d.stack) else { return .none }
            let key = DeviceModel.appKind(app, d.kind)
            let until = now + Int64(parameters.dismissCooldownHours) * 3_600_000_000
            state.stacks[i].dismissedUntil[key] = until
            schedule(until)
            state.stacks[i].suggestions.removeAll { $0.widget.instance == d.instance }
            state.stacks[i].repairTop()
        case .widgetTimeline(let t):
            state.reloads[TimelineBook.key(app: app, kind: t.kind), default: ReloadState()].noteTimeline(
                t, at: now, seq: seq)
            var times = timelineWakeups
            timelineWakeups = []
            times.removeAll(keepingCapacity: true)
            state.timelines.deliver(t, app: app, at: now, seq: seq, windowMicros: windowMicros, wakeups: &times)
            schedule(times, .rotation)
            timelineWakeups = times
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
            usageEdits.touch(day: DeviceModel.usageDay(now))
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
                        usageEdits.counts[h] &+= 1
                        usageEdits.touch(day: DeviceModel.usageDay(u.time))
                    }
                }
            }
            state.usageChanged = true
        case .appForeground:
            guard parameters.usageCountsAppForeground else { return .none }
            let hour = state.clock.hour(at: now)
            refreshUsage()
            state.usage[hour].append(
                UsageRecord(time: now, hour: hour, seq: seq, app: app, intent: nil, parameters: [:]))
            usageEdits.touch(day: DeviceModel.usageDay(now))
            state.usageChanged = true
            noteUsageAppended(hour: hour)
            pruneUsage(hour)
            schedule(state.clock.nextHour(after: now))
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
            placementKept = !homeMoved && previous.map { $0.shortcuts.map(\.kind) == stored.map(\.kind) } ?? false
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
        case .contextChanged(let c):
            let key = Clue.key(c.context)
            if c.active { state.contexts[key] = ActiveState(since: now, seq: seq) } else { state.contexts[key] = nil }
        case .permissionChanged(let c):
            state.permissions[app + "\u{1F}" + c.permission] = PermissionState(granted: c.granted, seq: seq)
        case .developerMode(let m):
            state.developerMode = m.enabled
            state.developerModeSeq = seq
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
        case .widgetViewed, .widgetTapped, .stackObserved:
            return .none
        }
        return .all
    }

    /// The stack an added widget goes to, created with defaults if no `stack.created` came first.
    mutating func stackIndex(creating id: String, family: String, seq: UInt64) -> Int {
        if let i = state.stackIndex(id) { return i }
        let platform = state.platform ?? "iOS"
        state.stacks.append(
            StackState(
                id: id, platform: platform, family: family, smartRotate: true, widgetSuggestions: true,
                createdSeq: seq, settingsSeq: seq))
        return state.stacks.count - 1
    }

    /// The group of an automatic relevance attribute or relevant intent (W4).
    func defaultGroup(app: String) -> String? {
        parameters.defaultRelevanceGroup == "perApp" ? "app:" + app : nil
    }

    func groupKey(_ group: RelevanceGroup?, app: String) -> String? {
        switch group {
        case .none, .automatic?: return defaultGroup(app: app)
        case .ungrouped?: return nil
        case .named(let n)?: return "named:" + app + "/" + n
        }
    }

    /// Drops the usage records of hour `h` that are older than the pattern window.
    mutating func pruneUsage(_ h: Int) {
        let horizon = state.now - patternWindowMicros
        guard let first = state.usage[h].first, first.time < horizon else { return }
        // Every record that left the window goes, so that the bucket depends only on the
        // window's records and not on when earlier ones were dropped.
        let old = state.usage[h].prefix { $0.time < horizon }.count
        for k in 0..<old { usageEdits.touch(day: DeviceModel.usageDay(state.usage[h][k].time)) }
        state.usage[h].removeFirst(old)
        state.usageChanged = true
        noteUsagePruned(hour: h, count: old)
    }
}

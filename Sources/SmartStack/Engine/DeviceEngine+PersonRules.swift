import RecordFormat

extension DeviceEngine {
    /// Applies what the person did (docs/events.md, "Stacks and the person"): stacks made,
    /// set up and edited, a scroll, a suggestion kept or dismissed, an app used.
    mutating func applyPersonEvent(_ event: Event, seq: UInt64, app: String) -> Work {
        let now = state.now
        switch event.body {
        case .stackCreated(let c):
            if let i = state.stackIndex(c.stack), state.stacks[i].observedLayout.assumed {
                // Explicit events define the stack before the observation's time; they are
                // never overridden backwards, so the assumed layout gives way.
                state.stacks[i] = StackState(
                    id: c.stack, platform: c.platform, family: c.family, smartRotate: c.smartRotate,
                    widgetSuggestions: c.widgetSuggestions, createdSeq: seq, settingsSeq: seq)
            } else if let i = state.stackIndex(c.stack) {
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
        case .appForeground:
            guard parameters.usageCountsAppForeground else { return .none }
            let hour = state.clock.hour(at: now)
            refreshUsage()
            state.usage[hour].append(
                UsageRecord(time: now, hour: hour, seq: seq, app: app, intent: nil, parameters: [:]))
            caches.usageEdits.touch(day: DeviceModel.usageDay(now))
            state.usageChanged = true
            noteUsageAppended(hour: hour)
            pruneUsage(hour)
            schedule(state.clock.nextHour(after: now))
        case .widgetViewed, .widgetTapped:
            return .none
        default:
            return .none
        }
        return .all
    }
}

import RecordFormat

extension DeviceEngine {
    /// Applies what the person did (docs/events.md, "Stacks and the person"): stacks made,
    /// set up and edited, a scroll, a suggestion kept or dismissed, an app used.
    mutating func applyPersonEvent(_ event: Event, seq: UInt64, app: String) -> Work {
        let now = state.now
        switch event.body {
        case .stackCreated(let created):
            if let stackIndex = state.stackIndex(created.stack), state.stacks[stackIndex].observedLayout.assumed {
                // Explicit events define the stack before the observation's time; they are
                // never overridden backwards, so the assumed layout gives way.
                state.stacks[stackIndex] = StackState(
                    id: created.stack, platform: created.platform, family: created.family,
                    smartRotate: created.smartRotate,
                    widgetSuggestions: created.widgetSuggestions, createdSeq: seq, settingsSeq: seq)
            } else if let stackIndex = state.stackIndex(created.stack) {
                state.stacks[stackIndex].platform = created.platform
                state.stacks[stackIndex].family = created.family
                state.stacks[stackIndex].smartRotate = created.smartRotate
                state.stacks[stackIndex].widgetSuggestions = created.widgetSuggestions
                state.stacks[stackIndex].settingsSeq = seq
            } else {
                state.stacks.append(
                    StackState(
                        id: created.stack, platform: created.platform, family: created.family,
                        smartRotate: created.smartRotate,
                        widgetSuggestions: created.widgetSuggestions, createdSeq: seq, settingsSeq: seq))
            }
        case .stackSettingsChanged(let change):
            guard let stackIndex = state.stackIndex(change.stack) else { return .none }
            if let smartRotate = change.smartRotate { state.stacks[stackIndex].smartRotate = smartRotate }
            if let widgetSuggestions = change.widgetSuggestions {
                state.stacks[stackIndex].widgetSuggestions = widgetSuggestions
            }
            state.stacks[stackIndex].settingsSeq = seq
        case .widgetAdded(let added):
            let stackIndex = self.stackIndex(creating: added.stack, family: added.widget.family, seq: seq)
            let widget = added.widget
            let member = Member(
                widget: WidgetIdentity(instance: widget.instance, kind: widget.kind, app: widget.app),
                family: widget.family,
                intent: widget.configuration?.name, parameters: parameterMap(widget.configuration?.parameters),
                addedSeq: seq)
            if let intent = widget.configuration?.name {
                state.intentHomes[intent] = IntentHome(app: widget.app, kind: widget.kind)
            }
            for otherIndex in state.stacks.holding(instance: widget.instance) {
                state.stacks[otherIndex].members.removeAll { $0.widget.instance == widget.instance }
            }
            var members = state.stacks[stackIndex].members
            let at = min(max(added.position ?? members.count, 0), members.count)
            members.insert(member, at: at)
            state.stacks[stackIndex].members = members
            if state.stacks[stackIndex].top == nil { state.stacks[stackIndex].top = widget.instance }
        case .widgetRemoved(let removed):
            guard let stackIndex = state.stackIndex(removed.stack) else { return .none }
            state.stacks[stackIndex].members.removeAll { $0.widget.instance == removed.instance }
            if state.stacks[stackIndex].restingTop == removed.instance { state.stacks[stackIndex].restingTop = nil }
            state.stacks[stackIndex].repairTop()
        case .widgetMoved(let moved):
            guard let stackIndex = state.stackIndex(moved.stack),
                let from = state.stacks[stackIndex].members.firstIndex(where: { $0.widget.instance == moved.instance })
            else { return .none }
            let member = state.stacks[stackIndex].members.remove(at: from)
            state.stacks[stackIndex].members.insert(
                member, at: min(max(moved.position, 0), state.stacks[stackIndex].members.count))
        case .widgetPinned(let pinning), .widgetUnpinned(let pinning):
            guard let stackIndex = state.stackIndex(pinning.stack),
                let memberIndex = state.stacks[stackIndex].members.firstIndex(where: {
                    $0.widget.instance == pinning.instance
                })
            else { return .none }
            let widget = state.stacks[stackIndex].members[memberIndex].widget
            if case .widgetUnpinned = event.body {
                state.stacks[stackIndex].members[memberIndex].pinnedAt = nil
            } else if state.declarations[DeviceModel.appKind(widget.app, widget.kind)]?.configuration != "relevance",
                state.stacks[stackIndex].members[memberIndex].pinnedAt == nil
            {
                // W6: it stays where it is shown now; W5: a relevance widget cannot be pinned.
                state.stacks[stackIndex].members[memberIndex].pinnedAt = state.stacks[stackIndex].layout.firstIndex(
                    of: .member(memberIndex))
            }
        case .scrolled(let scroll):
            guard let stackIndex = state.stackIndex(scroll.stack),
                let target = state.stacks[stackIndex].identity(scroll.instance)
            else {
                return .none
            }
            let from = state.stacks[stackIndex].identity(state.stacks[stackIndex].top)
            let hold = now + Int64(parameters.scrollHoldMinutes) * 60_000_000
            state.stacks[stackIndex].holdUntil = hold
            schedule(hold)
            let reason = Reason(
                .userScrolled, .policy, "scrollHoldMinutes",
                "the person scrolled the stack to \(target.kind); Smart Rotate waits \(parameters.scrollHoldMinutes) min",
                events: [seq])
            state.stacks[stackIndex].top = target.instance
            if state.stacks[stackIndex].member(target.instance) != nil {
                state.stacks[stackIndex].restingTop = target.instance
            }
            record(stack: stackIndex, action: .scroll, widget: target, from: from, reasons: [reason])
            return .all
        case .suggestionKept(let kept):
            guard let stackIndex = state.stackIndex(kept.stack),
                let suggestionIndex = state.stacks[stackIndex].suggestions.firstIndex(where: {
                    $0.widget.instance == kept.instance
                })
            else { return .none }
            let suggestion = state.stacks[stackIndex].suggestions.remove(at: suggestionIndex)
            let home = state.intentHomes.entries.first {
                $0.1.kind == suggestion.widget.kind && $0.1.app == suggestion.widget.app
            }?.0
            state.stacks[stackIndex].members.insert(
                Member(
                    widget: suggestion.widget, family: state.stacks[stackIndex].family, intent: home, parameters: [:],
                    addedSeq: seq),
                at: 0)
        case .suggestionDismissed(let dismissal):
            return applyDismissal(dismissal, event: event, app: app)
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

extension DeviceEngine {
    /// Applies a dismissed suggestion: the widget leaves the stack and its kind waits out
    /// the cooldown there. A dismissal that does not name its stack (the device's own
    /// record) applies to the stacks showing that widget as a suggestion, else to every
    /// stack of the device; one that names only the extension takes the app of the model's
    /// widgets with that extension and kind, else applies to no widget.
    mutating func applyDismissal(_ dismissal: SuggestionDismissal, event: Event, app: String) -> Work {
        guard let app = app.isEmpty ? appOfExtension(event.extensionBundle, kind: dismissal.kind) : app else {
            return .none
        }
        func dismissed(_ suggestion: ShownSuggestion) -> Bool {
            if let instance = dismissal.instance { return suggestion.widget.instance == instance }
            return suggestion.widget.app == app && suggestion.widget.kind == dismissal.kind
        }
        let stackIndices: [Int]
        if let stack = dismissal.stack {
            guard let stackIndex = state.stackIndex(stack) else { return .none }
            stackIndices = [stackIndex]
        } else {
            let showing = state.stacks.indices.filter { state.stacks[$0].suggestions.contains(where: dismissed) }
            stackIndices = showing.isEmpty ? Array(state.stacks.indices) : showing
        }
        let key = DeviceModel.appKind(app, dismissal.kind)
        let until = state.now + Int64(parameters.dismissCooldownHours) * 3_600_000_000
        for stackIndex in stackIndices {
            state.stacks[stackIndex].dismissedUntil[key] = until
            state.stacks[stackIndex].suggestions.removeAll(where: dismissed)
            state.stacks[stackIndex].repairTop()
        }
        schedule(until)
        return .all
    }

    /// The app of the model's widgets (members or suggestions) with this extension and kind.
    func appOfExtension(_ extensionBundle: String?, kind: String) -> String? {
        guard let extensionBundle else { return nil }
        return state.stacks.lazy.flatMap(\.members).first {
            $0.extensionBundle == extensionBundle && $0.widget.kind == kind
        }?
        .widget.app
    }
}

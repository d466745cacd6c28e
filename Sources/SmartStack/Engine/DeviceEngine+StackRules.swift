import RecordFormat

// What the person did to stacks (docs/events.md, "Stacks and the person"): one `apply` per
// event type, each changing the device model only; `handle(_:seq:)` dispatches to them.
extension DeviceEngine {
    /// `stack.created`: a new stack, or new settings for one already made; an assumed
    /// layout gives way to the explicit events that define the stack before its time.
    mutating func apply(_ created: StackCreated, seq: UInt64) -> Work {
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
        return .all
    }

    /// `stack.settingsChanged`: Smart Rotate or Widget Suggestions turned on or off.
    mutating func apply(_ change: StackSettingsChanged, seq: UInt64) -> Work {
        guard let stackIndex = state.stackIndex(change.stack) else { return .none }
        if let smartRotate = change.smartRotate { state.stacks[stackIndex].smartRotate = smartRotate }
        if let widgetSuggestions = change.widgetSuggestions {
            state.stacks[stackIndex].widgetSuggestions = widgetSuggestions
        }
        state.stacks[stackIndex].settingsSeq = seq
        return .all
    }

    /// `stack.widgetAdded`: the widget joins the stack at its position (leaving any other
    /// stack), the stack made with defaults if no `stack.created` came first.
    mutating func apply(_ added: WidgetAdded, seq: UInt64) -> Work {
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
        return .all
    }

    /// `stack.widgetRemoved`: the widget leaves the stack.
    mutating func apply(removed: StackInstance) -> Work {
        guard let stackIndex = state.stackIndex(removed.stack) else { return .none }
        state.stacks[stackIndex].members.removeAll { $0.widget.instance == removed.instance }
        if state.stacks[stackIndex].restingTop == removed.instance { state.stacks[stackIndex].restingTop = nil }
        state.stacks[stackIndex].repairTop()
        return .all
    }

    /// `stack.widgetMoved`: the widget takes its new position.
    mutating func apply(_ moved: WidgetMoved) -> Work {
        guard let stackIndex = state.stackIndex(moved.stack),
            let from = state.stacks[stackIndex].members.firstIndex(where: { $0.widget.instance == moved.instance })
        else { return .none }
        let member = state.stacks[stackIndex].members.remove(at: from)
        state.stacks[stackIndex].members.insert(
            member, at: min(max(moved.position, 0), state.stacks[stackIndex].members.count))
        return .all
    }

    /// `stack.widgetPinned` and `stack.widgetUnpinned`: W6, a pinned widget stays where it
    /// is shown now; W5, a relevance widget cannot be pinned.
    mutating func apply(pinning: StackInstance, pinned: Bool) -> Work {
        guard let stackIndex = state.stackIndex(pinning.stack),
            let memberIndex = state.stacks[stackIndex].members.firstIndex(where: {
                $0.widget.instance == pinning.instance
            })
        else { return .none }
        let widget = state.stacks[stackIndex].members[memberIndex].widget
        if !pinned {
            state.stacks[stackIndex].members[memberIndex].pinnedAt = nil
        } else if state.declarations[DeviceModel.appKind(widget.app, widget.kind)]?.configuration != "relevance",
            state.stacks[stackIndex].members[memberIndex].pinnedAt == nil
        {
            state.stacks[stackIndex].members[memberIndex].pinnedAt = state.stacks[stackIndex].layout.firstIndex(
                of: .member(memberIndex))
        }
        return .all
    }

    /// `stack.scrolled`: the widget the person scrolled to is on top, and Smart Rotate
    /// waits out the scroll hold.
    mutating func apply(scrolled scroll: StackInstance, seq: UInt64) -> Work {
        guard let stackIndex = state.stackIndex(scroll.stack),
            let target = state.stacks[stackIndex].identity(scroll.instance)
        else {
            return .none
        }
        let from = state.stacks[stackIndex].identity(state.stacks[stackIndex].top)
        let hold = state.now + Int64(parameters.scrollHoldMinutes) * 60_000_000
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
    }

    /// `suggestion.kept`: the suggested widget becomes the stack's first member.
    mutating func apply(_ kept: SuggestionAnswer, seq: UInt64) -> Work {
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
        return .all
    }
}

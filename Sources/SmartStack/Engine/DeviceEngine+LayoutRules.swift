import RecordFormat

extension DeviceEngine {
    /// Takes, on a fresh engine, every stack that the device's observed layouts list as
    /// it stood before the first of them (`docs/events.md`, "Observed layouts"): until an
    /// explicit `stack.created` or the observation's own time, answers about it list
    /// `LAYOUT_ASSUMED`. Layouts are taken in time order, a recorded one before an
    /// inferred one at the same time, then by sequence number; the first to list a stack
    /// gives it.
    public mutating func assume(layouts: [(seq: UInt64, event: Event)]) {
        precondition(state.lastSeq == 0, "assume(layouts:) applies to a fresh engine")
        let ordered = layouts.compactMap { item -> (UInt64, Int64, LayoutObserved, Bool)? in
            guard case .layoutObserved(let layout) = item.event.body else { return nil }
            return (item.seq, item.event.envelope.time.microseconds, layout, Self.timeUncertain(item.event))
        }.sorted { a, b in
            (a.1, a.2.isRecorded ? 0 : 1, a.0) < (b.1, b.2.isRecorded ? 0 : 1, b.0)
        }
        for (seq, time, layout, uncertain) in ordered {
            for observed in layout.stacks where state.stackIndex(observed.stack) == nil {
                var stack = StackState(
                    id: observed.stack, platform: observed.platform, family: observed.family,
                    smartRotate: observed.smartRotate ?? true, widgetSuggestions: observed.widgetSuggestions ?? true,
                    createdSeq: seq, settingsSeq: seq)
                stack.members = observed.members.map { member(from: $0, seq: seq) }
                // The person's recorded selection is the assumed top (TOP_ASSUMED).
                let selected = Self.selectedMember(observed, members: stack.members)
                stack.top = selected ?? stack.members.first?.widget.instance
                stack.observedLayout = source(of: layout, observed, seq: seq, time: time, assumed: true)
                stack.observedLayout.timeUncertain = uncertain
                stack.observedLayout.topAssumed = selected != nil
                state.stacks.append(stack)
            }
        }
    }

    /// `stack.layoutObserved`: from the observation's time on, each listed stack is exactly
    /// as listed, its members matched to the current ones.
    mutating func apply(_ layout: LayoutObserved, event: Event, seq: UInt64) -> Work {
        let time = event.envelope.time.microseconds
        let uncertain = Self.timeUncertain(event)
        for observed in layout.stacks {
            applyObservedStack(observed, of: layout, seq: seq, time: time)
            if let i = state.stackIndex(observed.stack) {
                state.stacks[i].observedLayout.timeUncertain = uncertain
                placeSelection(observed, stack: i, seq: seq)
            }
        }
        if layout.complete {
            let listed = Set(layout.stacks.map(\.stack))
            state.stacks.removeAll { !listed.contains($0.id) }
        }
        return .all
    }

    /// `stack.removed`: the stack is gone.
    mutating func apply(_ removed: StackRemoved) -> Work {
        guard let i = state.stackIndex(removed.stack) else { return .none }
        state.stacks.remove(at: i)
        return .all
    }

    private mutating func applyObservedStack(
        _ observed: ObservedStack, of layout: LayoutObserved, seq: UInt64, time: Int64
    ) {
        guard let stackIndex = state.stackIndex(observed.stack) else {
            var stack = StackState(
                id: observed.stack, platform: observed.platform, family: observed.family,
                smartRotate: observed.smartRotate ?? true, widgetSuggestions: observed.widgetSuggestions ?? true,
                createdSeq: seq, settingsSeq: seq)
            stack.members = observed.members.map { member(from: $0, seq: seq) }
            stack.top = stack.members.first?.widget.instance
            stack.observedLayout = source(of: layout, observed, seq: seq, time: time, assumed: false)
            state.stacks.append(stack)
            return
        }
        var stack = state.stacks[stackIndex]
        let current = stack.members.map {
            MatchCandidate(
                instance: $0.widget.instance, app: $0.widget.app, extensionBundle: $0.extensionBundle,
                kind: $0.widget.kind)
        }
        var taken = Set<Int>()
        var members = [Member]()
        for ref in observed.members {
            let name = RecordedWidgetName(
                instance: ref.instance, bundles: [ref.extensionBundle, ref.app].compactMap { $0 }, kind: ref.kind)
            if let matchedIndex = name.match(in: current).index, !taken.contains(matchedIndex) {
                taken.insert(matchedIndex)
                var kept = stack.members[matchedIndex]
                if kept.extensionBundle == nil { kept.extensionBundle = ref.extensionBundle }
                members.append(kept)
            } else {
                members.append(member(from: ref, seq: seq))
            }
        }
        let builtByEvents = stack.observedLayout.isExplicit
        var differences = [String]()
        if builtByEvents {
            let before = stack.members.map(\.widget.instance)
            let after = members.map(\.widget.instance)
            if before != after {
                differences.append(
                    "explicit events had \(before.isEmpty ? "no widgets" : before.joined(separator: ", ")); the device recorded \(after.isEmpty ? "no widgets" : after.joined(separator: ", "))"
                )
            }
            if let recordedRotate = observed.smartRotate, recordedRotate != stack.smartRotate {
                differences.append(
                    "Smart Rotate \(stack.smartRotate ? "on" : "off") by events, \(recordedRotate ? "on" : "off") recorded"
                )
            }
            if let recordedSuggestions = observed.widgetSuggestions, recordedSuggestions != stack.widgetSuggestions {
                differences.append(
                    "Widget Suggestions \(stack.widgetSuggestions ? "on" : "off") by events, \(recordedSuggestions ? "on" : "off") recorded"
                )
            }
        }
        let earlier = stack.createdSeq
        stack.platform = observed.platform
        stack.family = observed.family
        stack.members = members
        if let recordedRotate = observed.smartRotate { stack.smartRotate = recordedRotate }
        if let recordedSuggestions = observed.widgetSuggestions { stack.widgetSuggestions = recordedSuggestions }
        if observed.smartRotate != nil || observed.widgetSuggestions != nil { stack.settingsSeq = seq }
        var source = source(of: layout, observed, seq: seq, time: time, assumed: false)
        if !differences.isEmpty {
            source.conflict = [earlier, seq]
            source.conflictDetail =
                "the layout the device recorded contradicts the stack explicit events built: "
                + differences.joined(separator: "; ") + "; the record holds from its time"
        }
        stack.observedLayout = source
        if stack.restingTop.map({ id in !members.contains { $0.widget.instance == id } }) ?? false {
            stack.restingTop = nil
        }
        stack.repairTop()
        state.stacks[stackIndex] = stack
    }

    /// The member of `members` (in the observation's order) that the observation records as
    /// the person's selection, by its instance id in the model.
    static func selectedMember(_ observed: ObservedStack, members: [Member]) -> String? {
        guard let selected = observed.selected,
            let index = observed.members.firstIndex(where: { $0.instance == selected }), index < members.count
        else { return nil }
        return members[index].widget.instance
    }

    /// A recorded selection in a stack whose Smart Rotate is recorded off: nothing but the
    /// person moves its top, so the selected member is on top at the layout's time (G1).
    private mutating func placeSelection(_ observed: ObservedStack, stack i: Int, seq: UInt64) {
        guard observed.smartRotate == false,
            let selected = Self.selectedMember(observed, members: state.stacks[i].members),
            let widget = state.stacks[i].identity(selected)
        else { return }
        let from = state.stacks[i].identity(state.stacks[i].top)
        state.stacks[i].top = selected
        state.stacks[i].restingTop = selected
        record(
            stack: i, action: .scroll, widget: widget, from: from,
            reasons: [
                Reason(
                    .userSelected, .documented, "G1",
                    "the layout the device recorded names \(widget.kind) (\(selected)) as the member the person selected, and Smart Rotate is off for \(observed.stack): nothing else moves its top",
                    events: [seq])
            ])
    }

    /// Whether an importer marked the layout's time as one the extraction does not keep
    /// exactly.
    public static func timeUncertain(_ event: Event) -> Bool {
        event.extras.contains { $0.key == LayoutObserved.timeUncertainKey && $0.value == .bool(true) }
    }

    func member(from ref: WidgetRef, seq: UInt64) -> Member {
        Member(
            widget: WidgetIdentity(instance: ref.instance, kind: ref.kind, app: ref.app), family: ref.family,
            intent: ref.configuration?.name, parameters: parameterMap(ref.configuration?.parameters), addedSeq: seq,
            extensionBundle: ref.extensionBundle)
    }

    private func source(of layout: LayoutObserved, _ observed: ObservedStack, seq: UInt64, time: Int64, assumed: Bool)
        -> StackLayoutSource
    {
        StackLayoutSource(
            seq: seq, time: time, assumed: assumed, inferred: !layout.isRecorded,
            unrecordedSwitches: observed.unrecordedSwitches)
    }
}

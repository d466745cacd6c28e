import RecordFormat

extension DeviceEngine {
    /// Applies one event to the state; returns what decisions it may change. The caches
    /// an event makes stale are dropped first; then the event's own `apply` changes the
    /// device model.
    mutating func handle(_ event: Event, seq: UInt64) -> Work {
        let app = event.envelope.app ?? ""
        invalidateCaches(for: event, app: app)
        switch event.body {
        case .stackCreated(let created): return apply(created, seq: seq)
        case .stackSettingsChanged(let change): return apply(change, seq: seq)
        case .widgetAdded(let added): return apply(added, seq: seq)
        case .widgetRemoved(let removed): return apply(removed: removed)
        case .widgetMoved(let moved): return apply(moved)
        case .widgetPinned(let pinning): return apply(pinning: pinning, pinned: true)
        case .widgetUnpinned(let pinning): return apply(pinning: pinning, pinned: false)
        case .scrolled(let scroll): return apply(scrolled: scroll, seq: seq)
        case .suggestionKept(let kept): return apply(kept, seq: seq)
        case .suggestionDismissed(let dismissal): return apply(dismissal, event: event, app: app)
        case .appForeground(let foreground): return apply(foreground, seq: seq, app: app)
        case .widgetTimeline(let timeline): return apply(timeline, seq: seq, app: app)
        case .widgetDeclared(let declared): return apply(declared, seq: seq, app: app)
        case .reloadRequested(let request): return apply(request, seq: seq, app: app)
        case .widgetReloaded(let reloaded): return apply(reloaded, seq: seq, app: app)
        case .intentDonated(let donation): return apply(donation, seq: seq, app: app)
        case .donationsDeleted(let deletion): return apply(deletion, seq: seq, app: app)
        case .relevantShortcuts(let set): return apply(set, seq: seq, app: app)
        case .relevantIntents(let set): return apply(set, seq: seq, app: app)
        case .widgetRelevance(let set): return apply(set, seq: seq, app: app)
        case .contextChanged(let change): return apply(change, seq: seq)
        case .permissionChanged(let change): return apply(change, seq: seq, app: app)
        case .deviceInfo(let info): return apply(info, seq: seq)
        case .developerMode(let mode): return apply(mode, seq: seq)
        case .layoutObserved(let layout): return apply(layout, event: event, seq: seq)
        case .stackRemoved(let removed): return apply(removed)
        case .relevanceObserved(let observed): return apply(observed, event: event, seq: seq)
        case .widgetViewed, .widgetTapped, .stackObserved, .stackRotated, .suggestionObserved:
            // The person's views and taps, and the device's own records of what was on
            // screen and of its decisions: ground truth that answers compare the model
            // with (Forensics), not inputs of its rules.
            return .none
        }
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
}

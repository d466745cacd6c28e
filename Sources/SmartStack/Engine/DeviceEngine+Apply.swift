import RecordFormat

extension DeviceEngine {
    /// Applies one event to the state; returns what decisions it may change. The caches
    /// an event makes stale are dropped first; then the rules of its family apply.
    mutating func handle(_ event: Event, seq: UInt64) -> Work {
        let app = event.envelope.app ?? ""
        invalidateCaches(for: event, app: app)
        switch event.body {
        case .stackCreated, .stackSettingsChanged, .widgetAdded, .widgetRemoved, .widgetMoved, .widgetPinned,
            .widgetUnpinned, .scrolled, .suggestionKept, .suggestionDismissed, .widgetViewed, .widgetTapped,
            .appForeground:
            return applyPersonEvent(event, seq: seq, app: app)
        case .widgetTimeline, .widgetDeclared, .reloadRequested, .widgetReloaded, .intentDonated, .donationsDeleted,
            .relevantShortcuts, .relevantIntents, .widgetRelevance:
            return applyAppSignal(event, seq: seq, app: app)
        case .contextChanged, .permissionChanged, .deviceInfo, .developerMode, .stackObserved:
            return applyObservation(event, seq: seq, app: app)
        case .relevanceObserved(let observed):
            return applyRelevanceRecord(observed, event: event, seq: seq)
        case .stackRotated, .suggestionObserved:
            // The device's own records of its decisions and of relevance: ground truth
            // that answers compare the model with (Forensics), not inputs of its rules.
            return .none
        case .layoutObserved, .stackRemoved:
            return applyLayoutEvent(event, seq: seq)
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

    /// Drops the usage records of hour `h` that are older than the pattern window.
    mutating func pruneUsage(_ h: Int) {
        let horizon = state.now - patternWindowMicros
        guard let first = state.usage[h].first, first.time < horizon else { return }
        // Every record that left the window goes, so that the bucket depends only on the
        // window's records and not on when earlier ones were dropped.
        let old = state.usage[h].prefix { $0.time < horizon }.count
        for k in 0..<old { caches.usageEdits.touch(day: DeviceModel.usageDay(state.usage[h][k].time)) }
        state.usage[h].removeFirst(old)
        state.usageChanged = true
        noteUsagePruned(hour: h, count: old)
    }
}

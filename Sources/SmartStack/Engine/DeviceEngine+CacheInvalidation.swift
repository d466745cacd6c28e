import RecordFormat

extension DeviceEngine {
    /// Drops what an event makes stale among the engine's derived caches (the members'
    /// cached candidates, their usage evidence, the context version): the one place where
    /// a cache learns that its inputs changed. The rules themselves never read a cache
    /// that this has not kept in step.
    mutating func invalidateCaches(for event: Event, app: String) {
        switch event.body {
        case .widgetAdded, .suggestionKept:
            // A member's configuration may be new: the donations matched against the old one go too.
            caches.members.removeAll()
            forgetMemberEvidence()
        case .stackCreated(let created) where state.stackIndex(created.stack) == nil:
            // A new stack holds no member yet: no cached member moves.
            break
        case .stackCreated, .stackSettingsChanged, .widgetRemoved, .layoutObserved, .stackRemoved, .widgetMoved,
            .deviceInfo, .developerMode,
            .widgetDeclared,
            .donationsDeleted:
            caches.members.removeAll()
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
            caches.contextVersion &+= 1
        case .relevantShortcuts, .relevantIntents, .widgetRelevance:
            dropCachedMembers { $0.widget.app == app }
        default:
            break
        }
    }
}

// What a rule tells the caches of what it changed: the rules change the device model only,
// and call these where a cache built on what they changed must learn of it.
extension DeviceEngine {
    /// A usage record was appended to hour `hour`, made at `time`.
    mutating func noteUsageAppended(hour: Int, time: Int64) {
        caches.usageEdits.touch(day: DeviceModel.usageDay(time))
        noteUsageAppended(hour: hour)
    }

    /// A usage record of hour `hour`, made at `time`, was deleted.
    mutating func noteUsageDeleted(hour: Int, time: Int64) {
        caches.usageEdits.counts[hour] &+= 1
        caches.usageEdits.touch(day: DeviceModel.usageDay(time))
    }

    /// The first `count` usage records of hour `hour` are about to leave the window.
    mutating func noteUsageLeaving(hour: Int, count: Int) {
        for k in 0..<count { caches.usageEdits.touch(day: DeviceModel.usageDay(state.usage[hour][k].time)) }
    }

    /// An event of a kind that can change what Widget Suggestions places left it alone.
    mutating func notePlacementKept(_ kept: Bool) {
        caches.placementKept = kept
    }

    /// The relevance of the app's widgets of this kind changed.
    mutating func noteRelevanceChanged(app: String, kind: String) {
        dropCachedMembers(relevance: true) { $0.widget.kind == kind && $0.widget.app == app }
    }

    /// Schedules `work` at the instants that `fill` adds to the timelines, given in a
    /// buffer reused from one event to the next.
    mutating func scheduleWakeups(_ work: Work, _ fill: (inout TimelineBook, inout [Int64]) -> Void) {
        var times = caches.timelineWakeups
        caches.timelineWakeups = []
        times.removeAll(keepingCapacity: true)
        fill(&state.timelines, &times)
        schedule(times, work)
        caches.timelineWakeups = times
    }
}

// What else an applied event makes stale (`DeviceEngine.apply`): the plan of Widget
// Suggestions unless the event keeps its inputs, and the instants at which each stack was
// known to hold unless the event only changed the members whose cache entries
// `invalidateCaches(for:app:)` dropped. Kept beside it so that a rule's inputs and the
// caches built on them change together.
extension EventBody {
    /// Whether all the event can change for Smart Rotate is the candidates of the members
    /// it names (their cache entries are dropped when it applies); what the system places
    /// is looked at again in any case.
    var changesOnlyCachedMembers: Bool {
        switch self {
        case .widgetTimeline, .intentDonated, .appForeground, .relevantShortcuts, .relevantIntents, .widgetRelevance,
            .relevanceObserved:
            true
        default: false
        }
    }
}

extension EventBody {
    /// The one stack whose Smart Rotate inputs the event can change, when it changes no
    /// other stack's (what the system places is looked at again in any case): the stack
    /// made, set up or edited, or scrolled.
    var changesOneStackOnly: String? {
        switch self {
        case .stackCreated(let created): created.stack
        case .stackSettingsChanged(let change): change.stack
        case .widgetRemoved(let edit), .widgetPinned(let edit), .widgetUnpinned(let edit), .scrolled(let edit):
            edit.stack
        case .widgetMoved(let move): move.stack
        default: nil
        }
    }
}

extension EventBody {
    /// Whether the event leaves alone what `SuggestionPlan` is made of (the stacks'
    /// membership and settings, relevant shortcut sets, intents' homes, declarations).
    var keepsPlacementInputs: Bool {
        switch self {
        case .widgetTimeline, .widgetReloaded, .reloadRequested, .widgetViewed, .widgetTapped, .stackObserved,
            .stackRotated, .suggestionObserved, .relevanceObserved,
            .intentDonated, .appForeground, .contextChanged, .permissionChanged, .relevantIntents, .widgetRelevance,
            .scrolled, .suggestionDismissed, .widgetPinned, .widgetUnpinned, .developerMode:
            true
        default: false
        }
    }
}

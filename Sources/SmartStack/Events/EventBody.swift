/// The type-specific part of an event, one case per type of the event contract.
public enum EventBody: Hashable, Sendable {
    case stackCreated(StackCreated)
    case stackSettingsChanged(StackSettingsChanged)
    case widgetAdded(WidgetAdded)
    case widgetRemoved(StackInstance)
    case widgetMoved(WidgetMoved)
    case widgetPinned(StackInstance)
    case widgetUnpinned(StackInstance)
    case scrolled(StackInstance)
    case suggestionKept(SuggestionAnswer)
    case suggestionDismissed(SuggestionAnswer)
    case widgetViewed(Engagement)
    case widgetTapped(Engagement)
    case appForeground(AppForeground)
    case widgetTimeline(WidgetTimeline)
    case widgetDeclared(WidgetDeclared)
    case reloadRequested(ReloadRequested)
    case widgetReloaded(WidgetReloaded)
    case intentDonated(IntentDonated)
    case donationsDeleted(DonationsDeleted)
    case relevantShortcuts(RelevantShortcutsSet)
    case relevantIntents(RelevantIntentsSet)
    case widgetRelevance(WidgetRelevanceSet)
    case contextChanged(ContextChanged)
    case permissionChanged(PermissionChanged)
    case deviceInfo(DeviceInfo)
    case developerMode(DeveloperMode)
    case stackObserved(StackObserved)

    /// The contract's type name of this body.
    public var typeName: String { EventType(self).rawValue }

    var shape: any Shape {
        switch self {
        case .stackCreated(let s): s
        case .stackSettingsChanged(let s): s
        case .widgetAdded(let s): s
        case .widgetRemoved(let s), .widgetPinned(let s), .widgetUnpinned(let s), .scrolled(let s): s
        case .widgetMoved(let s): s
        case .suggestionKept(let s), .suggestionDismissed(let s): s
        case .widgetViewed(let s), .widgetTapped(let s): s
        case .appForeground(let s): s
        case .widgetTimeline(let s): s
        case .widgetDeclared(let s): s
        case .reloadRequested(let s): s
        case .widgetReloaded(let s): s
        case .intentDonated(let s): s
        case .donationsDeleted(let s): s
        case .relevantShortcuts(let s): s
        case .relevantIntents(let s): s
        case .widgetRelevance(let s): s
        case .contextChanged(let s): s
        case .permissionChanged(let s): s
        case .deviceInfo(let s): s
        case .developerMode(let s): s
        case .stackObserved(let s): s
        }
    }
}

/// The event types of the contract, by their names.
public enum EventType: String, CaseIterable, Sendable {
    case stackCreated = "stack.created"
    case stackSettingsChanged = "stack.settingsChanged"
    case widgetAdded = "stack.widgetAdded"
    case widgetRemoved = "stack.widgetRemoved"
    case widgetMoved = "stack.widgetMoved"
    case widgetPinned = "stack.widgetPinned"
    case widgetUnpinned = "stack.widgetUnpinned"
    case scrolled = "stack.scrolled"
    case suggestionKept = "suggestion.kept"
    case suggestionDismissed = "suggestion.dismissed"
    case widgetViewed = "widget.viewed"
    case widgetTapped = "widget.tapped"
    case appForeground = "app.foreground"
    case widgetTimeline = "widget.timeline"
    case widgetDeclared = "widget.declared"
    case reloadRequested = "widget.reloadRequested"
    case widgetReloaded = "widget.reloaded"
    case intentDonated = "intent.donated"
    case donationsDeleted = "intent.donationsDeleted"
    case relevantShortcuts = "shortcuts.relevantSet"
    case relevantIntents = "intents.relevantSet"
    case widgetRelevance = "widget.relevance"
    case contextChanged = "context.changed"
    case permissionChanged = "permission.changed"
    case deviceInfo = "device.info"
    case developerMode = "system.developerMode"
    case stackObserved = "stack.observed"

    init(_ body: EventBody) {
        switch body {
        case .stackCreated: self = .stackCreated
        case .stackSettingsChanged: self = .stackSettingsChanged
        case .widgetAdded: self = .widgetAdded
        case .widgetRemoved: self = .widgetRemoved
        case .widgetMoved: self = .widgetMoved
        case .widgetPinned: self = .widgetPinned
        case .widgetUnpinned: self = .widgetUnpinned
        case .scrolled: self = .scrolled
        case .suggestionKept: self = .suggestionKept
        case .suggestionDismissed: self = .suggestionDismissed
        case .widgetViewed: self = .widgetViewed
        case .widgetTapped: self = .widgetTapped
        case .appForeground: self = .appForeground
        case .widgetTimeline: self = .widgetTimeline
        case .widgetDeclared: self = .widgetDeclared
        case .reloadRequested: self = .reloadRequested
        case .widgetReloaded: self = .widgetReloaded
        case .intentDonated: self = .intentDonated
        case .donationsDeleted: self = .donationsDeleted
        case .relevantShortcuts: self = .relevantShortcuts
        case .relevantIntents: self = .relevantIntents
        case .widgetRelevance: self = .widgetRelevance
        case .contextChanged: self = .contextChanged
        case .permissionChanged: self = .permissionChanged
        case .deviceInfo: self = .deviceInfo
        case .developerMode: self = .developerMode
        case .stackObserved: self = .stackObserved
        }
    }

    /// Whether the envelope's `app` is required: app signals, suggestions answers and
    /// permissions name their app.
    var requiresApp: Bool {
        switch self {
        case .widgetTimeline, .widgetDeclared, .reloadRequested, .widgetReloaded, .intentDonated,
             .donationsDeleted, .relevantShortcuts, .relevantIntents, .widgetRelevance,
             .permissionChanged, .appForeground, .suggestionKept, .suggestionDismissed:
            return true
        default:
            return false
        }
    }

    /// Decodes the body's fields (the envelope's already taken).
    func decodeBody(_ f: inout ObjectFields) throws(FieldError) -> EventBody {
        switch self {
        case .stackCreated: return .stackCreated(try StackCreated(fields: &f))
        case .stackSettingsChanged: return .stackSettingsChanged(try StackSettingsChanged(fields: &f))
        case .widgetAdded: return .widgetAdded(try WidgetAdded(fields: &f))
        case .widgetRemoved: return .widgetRemoved(try StackInstance(fields: &f))
        case .widgetMoved: return .widgetMoved(try WidgetMoved(fields: &f))
        case .widgetPinned: return .widgetPinned(try StackInstance(fields: &f))
        case .widgetUnpinned: return .widgetUnpinned(try StackInstance(fields: &f))
        case .scrolled: return .scrolled(try StackInstance(fields: &f))
        case .suggestionKept: return .suggestionKept(try SuggestionAnswer(fields: &f))
        case .suggestionDismissed: return .suggestionDismissed(try SuggestionAnswer(fields: &f))
        case .widgetViewed: return .widgetViewed(try Engagement(fields: &f))
        case .widgetTapped: return .widgetTapped(try Engagement(fields: &f))
        case .appForeground: return .appForeground(try AppForeground(fields: &f))
        case .widgetTimeline: return .widgetTimeline(try WidgetTimeline(fields: &f))
        case .widgetDeclared: return .widgetDeclared(try WidgetDeclared(fields: &f))
        case .reloadRequested: return .reloadRequested(try ReloadRequested(fields: &f))
        case .widgetReloaded: return .widgetReloaded(try WidgetReloaded(fields: &f))
        case .intentDonated: return .intentDonated(try IntentDonated(fields: &f))
        case .donationsDeleted: return .donationsDeleted(try DonationsDeleted(fields: &f))
        case .relevantShortcuts: return .relevantShortcuts(try RelevantShortcutsSet(fields: &f))
        case .relevantIntents: return .relevantIntents(try RelevantIntentsSet(fields: &f))
        case .widgetRelevance: return .widgetRelevance(try WidgetRelevanceSet(fields: &f))
        case .contextChanged: return .contextChanged(try ContextChanged(fields: &f))
        case .permissionChanged: return .permissionChanged(try PermissionChanged(fields: &f))
        case .deviceInfo: return .deviceInfo(try DeviceInfo(fields: &f))
        case .developerMode: return .developerMode(try DeveloperMode(fields: &f))
        case .stackObserved: return .stackObserved(try StackObserved(fields: &f))
        }
    }

    /// Reads the body's binary form.
    func decodeBody(_ b: inout BinaryIn) throws(ByteReader.Error) -> EventBody {
        switch self {
        case .stackCreated: return .stackCreated(try b.shape())
        case .stackSettingsChanged: return .stackSettingsChanged(try b.shape())
        case .widgetAdded: return .widgetAdded(try b.shape())
        case .widgetRemoved: return .widgetRemoved(try b.shape())
        case .widgetMoved: return .widgetMoved(try b.shape())
        case .widgetPinned: return .widgetPinned(try b.shape())
        case .widgetUnpinned: return .widgetUnpinned(try b.shape())
        case .scrolled: return .scrolled(try b.shape())
        case .suggestionKept: return .suggestionKept(try b.shape())
        case .suggestionDismissed: return .suggestionDismissed(try b.shape())
        case .widgetViewed: return .widgetViewed(try b.shape())
        case .widgetTapped: return .widgetTapped(try b.shape())
        case .appForeground: return .appForeground(try b.shape())
        case .widgetTimeline: return .widgetTimeline(try b.shape())
        case .widgetDeclared: return .widgetDeclared(try b.shape())
        case .reloadRequested: return .reloadRequested(try b.shape())
        case .widgetReloaded: return .widgetReloaded(try b.shape())
        case .intentDonated: return .intentDonated(try b.shape())
        case .donationsDeleted: return .donationsDeleted(try b.shape())
        case .relevantShortcuts: return .relevantShortcuts(try b.shape())
        case .relevantIntents: return .relevantIntents(try b.shape())
        case .widgetRelevance: return .widgetRelevance(try b.shape())
        case .contextChanged: return .contextChanged(try b.shape())
        case .permissionChanged: return .permissionChanged(try b.shape())
        case .deviceInfo: return .deviceInfo(try b.shape())
        case .developerMode: return .developerMode(try b.shape())
        case .stackObserved: return .stackObserved(try b.shape())
        }
    }
}

import Ledger

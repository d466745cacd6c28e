import RecordFormat

/// The type-specific part of an event, one case per type of the event contract.
public enum EventBody: Hashable, Sendable {
    /// A `stack.created` event.
    case stackCreated(StackCreated)
    /// A `stack.settingsChanged` event.
    case stackSettingsChanged(StackSettingsChanged)
    /// A `stack.widgetAdded` event.
    case widgetAdded(WidgetAdded)
    /// A `stack.widgetRemoved` event.
    case widgetRemoved(StackInstance)
    /// A `stack.widgetMoved` event.
    case widgetMoved(WidgetMoved)
    /// A `stack.widgetPinned` event.
    case widgetPinned(StackInstance)
    /// A `stack.widgetUnpinned` event.
    case widgetUnpinned(StackInstance)
    /// A `stack.scrolled` event.
    case scrolled(StackInstance)
    /// A `suggestion.kept` event.
    case suggestionKept(SuggestionAnswer)
    /// A `suggestion.dismissed` event.
    case suggestionDismissed(SuggestionDismissal)
    /// A `widget.viewed` event.
    case widgetViewed(Engagement)
    /// A `widget.tapped` event.
    case widgetTapped(Engagement)
    /// A `app.foreground` event.
    case appForeground(AppForeground)
    /// A `widget.timeline` event.
    case widgetTimeline(WidgetTimeline)
    /// A `widget.declared` event.
    case widgetDeclared(WidgetDeclared)
    /// A `widget.reloadRequested` event.
    case reloadRequested(ReloadRequested)
    /// A `widget.reloaded` event.
    case widgetReloaded(WidgetReloaded)
    /// A `intent.donated` event.
    case intentDonated(IntentDonated)
    /// A `intent.donationsDeleted` event.
    case donationsDeleted(DonationsDeleted)
    /// A `shortcuts.relevantSet` event.
    case relevantShortcuts(RelevantShortcutsSet)
    /// A `intents.relevantSet` event.
    case relevantIntents(RelevantIntentsSet)
    /// A `widget.relevance` event.
    case widgetRelevance(WidgetRelevanceSet)
    /// A `context.changed` event.
    case contextChanged(ContextChanged)
    /// A `permission.changed` event.
    case permissionChanged(PermissionChanged)
    /// A `device.info` event.
    case deviceInfo(DeviceInfo)
    /// A `system.developerMode` event.
    case developerMode(DeveloperMode)
    /// A `stack.observed` event.
    case stackObserved(StackObserved)
    /// A `stack.layoutObserved` event.
    case layoutObserved(LayoutObserved)
    /// A `stack.removed` event.
    case stackRemoved(StackRemoved)
    /// A `stack.rotated` event.
    case stackRotated(StackRotated)
    /// A `suggestion.observed` event.
    case suggestionObserved(SuggestionObserved)
    /// A `widget.relevanceObserved` event.
    case relevanceObserved(RelevanceObserved)

    /// The contract's type name of this body.
    public var typeName: String { EventType(self).rawValue }

    /// Writes the binary form (a switch, so that no existential box is made per event).
    func encode(_ out: inout BinaryOut) {
        switch self {
        case .stackCreated(let s): s.encode(&out)
        case .stackSettingsChanged(let s): s.encode(&out)
        case .widgetAdded(let s): s.encode(&out)
        case .widgetRemoved(let s): s.encode(&out)
        case .widgetMoved(let s): s.encode(&out)
        case .widgetPinned(let s): s.encode(&out)
        case .widgetUnpinned(let s): s.encode(&out)
        case .scrolled(let s): s.encode(&out)
        case .suggestionKept(let s): s.encode(&out)
        case .suggestionDismissed(let s): s.encode(&out)
        case .widgetViewed(let s): s.encode(&out)
        case .widgetTapped(let s): s.encode(&out)
        case .appForeground(let s): s.encode(&out)
        case .widgetTimeline(let s): s.encode(&out)
        case .widgetDeclared(let s): s.encode(&out)
        case .reloadRequested(let s): s.encode(&out)
        case .widgetReloaded(let s): s.encode(&out)
        case .intentDonated(let s): s.encode(&out)
        case .donationsDeleted(let s): s.encode(&out)
        case .relevantShortcuts(let s): s.encode(&out)
        case .relevantIntents(let s): s.encode(&out)
        case .widgetRelevance(let s): s.encode(&out)
        case .contextChanged(let s): s.encode(&out)
        case .permissionChanged(let s): s.encode(&out)
        case .deviceInfo(let s): s.encode(&out)
        case .developerMode(let s): s.encode(&out)
        case .stackObserved(let s): s.encode(&out)
        case .layoutObserved(let s): s.encode(&out)
        case .stackRemoved(let s): s.encode(&out)
        case .stackRotated(let s): s.encode(&out)
        case .suggestionObserved(let s): s.encode(&out)
        case .relevanceObserved(let s): s.encode(&out)
        }
    }

    /// Writes the type's fields in canonical order into an open object.
    func writeMembers(_ w: inout CanonicalWriter) {
        switch self {
        case .stackCreated(let s): s.writeMembers(&w)
        case .stackSettingsChanged(let s): s.writeMembers(&w)
        case .widgetAdded(let s): s.writeMembers(&w)
        case .widgetRemoved(let s): s.writeMembers(&w)
        case .widgetMoved(let s): s.writeMembers(&w)
        case .widgetPinned(let s): s.writeMembers(&w)
        case .widgetUnpinned(let s): s.writeMembers(&w)
        case .scrolled(let s): s.writeMembers(&w)
        case .suggestionKept(let s): s.writeMembers(&w)
        case .suggestionDismissed(let s): s.writeMembers(&w)
        case .widgetViewed(let s): s.writeMembers(&w)
        case .widgetTapped(let s): s.writeMembers(&w)
        case .appForeground(let s): s.writeMembers(&w)
        case .widgetTimeline(let s): s.writeMembers(&w)
        case .widgetDeclared(let s): s.writeMembers(&w)
        case .reloadRequested(let s): s.writeMembers(&w)
        case .widgetReloaded(let s): s.writeMembers(&w)
        case .intentDonated(let s): s.writeMembers(&w)
        case .donationsDeleted(let s): s.writeMembers(&w)
        case .relevantShortcuts(let s): s.writeMembers(&w)
        case .relevantIntents(let s): s.writeMembers(&w)
        case .widgetRelevance(let s): s.writeMembers(&w)
        case .contextChanged(let s): s.writeMembers(&w)
        case .permissionChanged(let s): s.writeMembers(&w)
        case .deviceInfo(let s): s.writeMembers(&w)
        case .developerMode(let s): s.writeMembers(&w)
        case .stackObserved(let s): s.writeMembers(&w)
        case .layoutObserved(let s): s.writeMembers(&w)
        case .stackRemoved(let s): s.writeMembers(&w)
        case .stackRotated(let s): s.writeMembers(&w)
        case .suggestionObserved(let s): s.writeMembers(&w)
        case .relevanceObserved(let s): s.writeMembers(&w)
        }
    }
}

/// The event types of the contract, by their names.
public enum EventType: String, CaseIterable, Sendable {
    /// `stack.created`.
    case stackCreated = "stack.created"
    /// `stack.settingsChanged`.
    case stackSettingsChanged = "stack.settingsChanged"
    /// `stack.widgetAdded`.
    case widgetAdded = "stack.widgetAdded"
    /// `stack.widgetRemoved`.
    case widgetRemoved = "stack.widgetRemoved"
    /// `stack.widgetMoved`.
    case widgetMoved = "stack.widgetMoved"
    /// `stack.widgetPinned`.
    case widgetPinned = "stack.widgetPinned"
    /// `stack.widgetUnpinned`.
    case widgetUnpinned = "stack.widgetUnpinned"
    /// `stack.scrolled`.
    case scrolled = "stack.scrolled"
    /// `suggestion.kept`.
    case suggestionKept = "suggestion.kept"
    /// `suggestion.dismissed`.
    case suggestionDismissed = "suggestion.dismissed"
    /// `widget.viewed`.
    case widgetViewed = "widget.viewed"
    /// `widget.tapped`.
    case widgetTapped = "widget.tapped"
    /// `app.foreground`.
    case appForeground = "app.foreground"
    /// `widget.timeline`.
    case widgetTimeline = "widget.timeline"
    /// `widget.declared`.
    case widgetDeclared = "widget.declared"
    /// `widget.reloadRequested`.
    case reloadRequested = "widget.reloadRequested"
    /// `widget.reloaded`.
    case widgetReloaded = "widget.reloaded"
    /// `intent.donated`.
    case intentDonated = "intent.donated"
    /// `intent.donationsDeleted`.
    case donationsDeleted = "intent.donationsDeleted"
    /// `shortcuts.relevantSet`.
    case relevantShortcuts = "shortcuts.relevantSet"
    /// `intents.relevantSet`.
    case relevantIntents = "intents.relevantSet"
    /// `widget.relevance`.
    case widgetRelevance = "widget.relevance"
    /// `context.changed`.
    case contextChanged = "context.changed"
    /// `permission.changed`.
    case permissionChanged = "permission.changed"
    /// `device.info`.
    case deviceInfo = "device.info"
    /// `system.developerMode`.
    case developerMode = "system.developerMode"
    /// `stack.observed`.
    case stackObserved = "stack.observed"
    /// `stack.layoutObserved`.
    case layoutObserved = "stack.layoutObserved"
    /// `stack.removed`.
    case stackRemoved = "stack.removed"
    /// `stack.rotated`.
    case stackRotated = "stack.rotated"
    /// `suggestion.observed`.
    case suggestionObserved = "suggestion.observed"
    /// `widget.relevanceObserved`.
    case relevanceObserved = "widget.relevanceObserved"

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
        case .layoutObserved: self = .layoutObserved
        case .stackRemoved: self = .stackRemoved
        case .stackRotated: self = .stackRotated
        case .suggestionObserved: self = .suggestionObserved
        case .relevanceObserved: self = .relevanceObserved
        }
    }

    /// The type of a name, without comparing the name with every case.
    static let byName: [String: EventType] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The type named `name`, if the contract has one (a small table keyed by a cheap
    /// hash of the name's bytes: every stored record is looked up here).
    public static func named(_ name: String) -> EventType? {
        let slot = Int(slotHash(name) & 127)
        guard let type = table[slot], type.rawValue == name else { return byName[name] }
        return type
    }

    private static func slotHash(_ name: String) -> UInt64 {
        var n = name
        return n.withUTF8 { u in
            var h: UInt64 = UInt64(u.count) &* 0x9E37_79B9_7F4A_7C15
            for b in u.suffix(9) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h ^ (h >> 29)
        }
    }

    private static let table: [EventType?] = {
        var t = [EventType?](repeating: nil, count: 128)
        for type in allCases where t[Int(slotHash(type.rawValue) & 127)] == nil {
            t[Int(slotHash(type.rawValue) & 127)] = type
        }
        return t
    }()

    /// Whether the envelope's `app` is required: app signals, a kept suggestion and
    /// permissions name their app (a dismissal may name its extension instead).
    var requiresApp: Bool {
        switch self {
        case .widgetTimeline, .widgetDeclared, .reloadRequested, .widgetReloaded, .intentDonated,
            .donationsDeleted, .relevantShortcuts, .relevantIntents, .widgetRelevance,
            .permissionChanged, .appForeground, .suggestionKept:
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
        case .suggestionDismissed: return .suggestionDismissed(try SuggestionDismissal(fields: &f))
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
        case .layoutObserved: return .layoutObserved(try LayoutObserved(fields: &f))
        case .stackRemoved: return .stackRemoved(try StackRemoved(fields: &f))
        case .stackRotated: return .stackRotated(try StackRotated(fields: &f))
        case .suggestionObserved: return .suggestionObserved(try SuggestionObserved(fields: &f))
        case .relevanceObserved: return .relevanceObserved(try RelevanceObserved(fields: &f))
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
        case .layoutObserved: return .layoutObserved(try b.shape())
        case .stackRemoved: return .stackRemoved(try b.shape())
        case .stackRotated: return .stackRotated(try b.shape())
        case .suggestionObserved: return .suggestionObserved(try b.shape())
        case .relevanceObserved: return .relevanceObserved(try b.shape())
        }
    }
}

extension FieldTable {
    /// The rows of a union: one per key, exactly one of which is present.
    static func rows<U: UnionShape>(ofUnion _: U.Type) -> [Row] {
        U.variants.map { Row(key: "\($0.key)", summary: FieldSummary(type: $0.type, presence: "one of these keys")) }
    }

    /// The rows of an event type's own fields (the envelope's are in docs/events.md).
    static func rows(of type: EventType) -> [Row] {
        switch type {
        case .stackCreated: rows(of: StackCreated.self)
        case .stackSettingsChanged: rows(of: StackSettingsChanged.self)
        case .widgetAdded: rows(of: WidgetAdded.self)
        case .widgetRemoved, .widgetPinned, .widgetUnpinned, .scrolled: rows(of: StackInstance.self)
        case .widgetMoved: rows(of: WidgetMoved.self)
        case .suggestionKept: rows(of: SuggestionAnswer.self)
        case .suggestionDismissed: rows(of: SuggestionDismissal.self)
        case .widgetViewed, .widgetTapped: rows(of: Engagement.self)
        case .appForeground: rows(of: AppForeground.self)
        case .widgetTimeline: rows(of: WidgetTimeline.self)
        case .widgetDeclared: rows(of: WidgetDeclared.self)
        case .reloadRequested: rows(of: ReloadRequested.self)
        case .widgetReloaded: rows(of: WidgetReloaded.self)
        case .intentDonated: rows(of: IntentDonated.self)
        case .donationsDeleted: rows(ofUnion: DonationsDeleted.self)
        case .relevantShortcuts: rows(of: RelevantShortcutsSet.self)
        case .relevantIntents: rows(of: RelevantIntentsSet.self)
        case .widgetRelevance: rows(of: WidgetRelevanceSet.self)
        case .contextChanged: rows(of: ContextChanged.self)
        case .permissionChanged: rows(of: PermissionChanged.self)
        case .deviceInfo: rows(of: DeviceInfo.self)
        case .developerMode: rows(of: DeveloperMode.self)
        case .stackObserved: rows(of: StackObserved.self)
        case .layoutObserved: rows(of: LayoutObserved.self)
        case .stackRemoved: rows(of: StackRemoved.self)
        case .stackRotated: rows(of: StackRotated.self)
        case .suggestionObserved: rows(of: SuggestionObserved.self)
        case .relevanceObserved: rows(of: RelevanceObserved.self)
        }
    }

    /// The objects that events nest, by the Swift name their fields' types show.
    static let nestedShapes: [(name: String, rows: [Row])] = [
        ("TimelineEntry", rows(of: TimelineEntry.self)),
        ("Relevance", rows(of: Relevance.self)),
        ("Intent", rows(of: Intent.self)),
        ("WidgetRef", rows(of: WidgetRef.self)),
        ("ObservedStack", rows(of: ObservedStack.self)),
        ("RelevantShortcut", rows(of: RelevantShortcut.self)),
        ("RelevanceProvider", rows(ofUnion: RelevanceProvider.self)),
        ("DateWindow", rows(of: DateWindow.self)),
        ("Region", rows(of: Region.self)),
        ("RelevantIntentEntry", rows(of: RelevantIntentEntry.self)),
        ("RelevantContext", rows(ofUnion: RelevantContext.self)),
        ("DateClue", rows(of: DateClue.self)),
        ("LocationClue", rows(ofUnion: LocationClue.self)),
        ("RelevanceAttribute", rows(of: RelevanceAttribute.self)),
    ]

    /// docs/event-fields.md: every event type's fields, then the objects they nest.
    static var document: String {
        var out = """
            # Event fields

            Each event type's own fields, beside the envelope's (`type`, `time`, `device`, `app`, `id`,
            `source`: docs/events.md). These tables are made from the descriptions in
            `Sources/SmartStack/Events` from which validation, the canonical form and the stored form
            also follow; `swift test --filter EventFieldTable` fails when this file differs from them.
            A key not listed is kept as an unknown field of the event.

            """
        for type in EventType.allCases {
            out += "\n## `\(type.rawValue)`\n\n"
            let rows = rows(of: type)
            out += rows.isEmpty ? "No fields of its own.\n" : markdown(rows)
        }
        out += "\n# Nested objects\n"
        for shape in nestedShapes {
            out += "\n## \(shape.name)\n\n" + markdown(shape.rows)
        }
        return out
    }
}

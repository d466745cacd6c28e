public import RecordFormat

/// One widget a stack shows at an instant.
public struct WidgetSnapshot: Hashable, Sendable {
    /// Who it is.
    public var widget: WidgetIdentity
    /// Its position, 0 = first.
    public var position: Int
    /// Pinned by the person (watchOS).
    public var pinned: Bool
    /// Placed by the system (a suggestion or a relevance card).
    public var suggested: Bool
    /// Its active relevance, nil when none is active.
    public var relevance: ActiveRelevance?
    /// The timeline entry it displays (T1: the latest entry dated at or before the
    /// instant), nil when it has none or was placed by the system.
    public var entry: DisplayedEntry?
    /// The widget extension's bundle id, when an event recorded it.
    public var extensionBundle: String? = nil
}

/// The timeline entry a widget displays at an instant (rule T1).
public struct DisplayedEntry: Hashable, Sendable {
    /// The entry's date.
    public var date: Timestamp
    /// The `widget.timeline` event that delivered it.
    public var event: UInt64
}

/// One stack at an instant.
public struct StackSnapshot: Hashable, Sendable {
    /// The stack's id.
    public var stack: String
    /// `iOS`, `iPadOS` or `watchOS`.
    public var platform: String
    /// Smart Rotate on.
    public var smartRotate: Bool
    /// Widget Suggestions on.
    public var widgetSuggestions: Bool
    /// The widget shown, nil for an empty stack.
    public var top: WidgetSnapshot?
    /// Every widget shown, in order.
    public var widgets: [WidgetSnapshot]
    /// The decision that put the top there, if any.
    public var decision: Decision?
    /// What an answer about the stack rests on that the log does not record for the instant.
    public var assumptions: [Assumption] = []
}

/// A device's stacks at an instant.
public struct DeviceSnapshot: Hashable, Sendable {
    /// The instant.
    public var at: Timestamp
    /// The device.
    public var device: String
    /// Its stacks, in creation order.
    public var stacks: [StackSnapshot]

    /// Every stack's assumptions, ordered by code, stack, instance.
    public var assumptions: [Assumption] { stacks.flatMap(\.assumptions).sorted() }
}

extension DeviceEngine {
    /// The state at the engine's clock. Call `advance(to:)` first. It only reads: the
    /// clock's cache it fills is a copy's.
    public func snapshot(at time: Timestamp) -> DeviceSnapshot {
        var clock = state.clock
        var stacks = [StackSnapshot]()
        for stack in state.stacks {
            var widgets = [WidgetSnapshot]()
            let replacing = replacements(in: stack)
            let replacers = Set(replacing.values)
            for slot in stack.layout {
                switch slot {
                case .suggestion(let suggestionIndex):
                    if replacers.contains(suggestionIndex) { continue }
                    widgets.append(
                        WidgetSnapshot(
                            widget: stack.suggestions[suggestionIndex].widget, position: widgets.count, pinned: false,
                            suggested: true,
                            relevance: nil))
                case .member(let memberIndex):
                    if let suggestionIndex = replacing[memberIndex] {
                        widgets.append(
                            WidgetSnapshot(
                                widget: stack.suggestions[suggestionIndex].widget, position: widgets.count,
                                pinned: false,
                                suggested: true, relevance: nil))
                        continue
                    }
                    let member = stack.members[memberIndex]
                    let usesEntryRelevance = !stack.isWatch || parameters.watchUsesEntryRelevance
                    let relevance =
                        usesEntryRelevance
                        ? state.timelines.active(
                            app: member.widget.app, kind: member.widget.kind, instance: member.widget.instance,
                            at: state.now,
                            windowMicros: windowMicros)?.0
                        : nil
                    let shown = state.timelines.displayed(
                        app: member.widget.app, kind: member.widget.kind, instance: member.widget.instance,
                        at: state.now)
                    widgets.append(
                        WidgetSnapshot(
                            widget: member.widget, position: widgets.count, pinned: member.pinned, suggested: false,
                            relevance: relevance,
                            entry: shown.map {
                                DisplayedEntry(
                                    date: Timestamp(microseconds: $0.date, offsetMinutes: $0.offset), event: $0.seq)
                            }, extensionBundle: member.extensionBundle))
                }
            }
            let top = widgets.first { $0.widget.instance == stack.top }
            stacks.append(
                StackSnapshot(
                    stack: stack.id, platform: stack.platform, smartRotate: stack.smartRotate,
                    widgetSuggestions: stack.widgetSuggestions,
                    top: top, widgets: widgets, decision: top == nil ? nil : stack.topDecision,
                    assumptions: (stack.assumptions(at: state.now, clock: &clock)
                        + widgets.compactMap { shownWidget in
                            shownWidget.relevance.flatMap {
                                $0.fromDeviceRecord
                                    ? Assumption.relevanceFromDeviceRecord(
                                        stack: stack.id, widget: shownWidget.widget, relevance: $0)
                                    : nil
                            }
                        }).sorted()))
        }
        return DeviceSnapshot(at: time, device: state.device, stacks: stacks)
    }

    /// The members that relevance cards replace (W5, `associatedKind`): member index to
    /// the index of the card shown in its place. A card of a relevance widget whose
    /// declaration names an associated kind takes the place of the stack's member of that
    /// kind from the same app; the first such card (newest first) does.
    func replacements(in stack: StackState) -> [Int: Int] {
        guard stack.isWatch, !stack.suggestions.isEmpty else { return [:] }
        var out = [Int: Int]()
        for (i, card) in stack.suggestions.enumerated() {
            guard let declaration = state.declarations[DeviceModel.appKind(card.widget.app, card.widget.kind)],
                declaration.configuration == "relevance", let associated = declaration.associatedKind,
                let j = stack.members.firstIndex(where: {
                    $0.widget.app == card.widget.app && $0.widget.kind == associated
                }),
                out[j] == nil
            else { continue }
            out[j] = i
        }
        return out
    }

    /// The device's local offset at an instant, in minutes.
    public func localOffset(at micros: Int64) -> Int16 {
        var clock = state.clock
        return clock.offset(at: micros)
    }
}

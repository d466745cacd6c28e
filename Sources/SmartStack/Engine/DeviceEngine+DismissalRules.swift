import RecordFormat

extension DeviceEngine {
    /// `suggestion.dismissed`: the widget leaves the stack and its kind waits out the
    /// cooldown there. A dismissal that does not name its stack (the device's own record)
    /// applies to the stacks showing that widget as a suggestion, else to every stack of the
    /// device; one that names only the extension takes the app of the model's widgets with
    /// that extension and kind, else applies to no widget.
    mutating func apply(_ dismissal: SuggestionDismissal, event: Event, app: String) -> Work {
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

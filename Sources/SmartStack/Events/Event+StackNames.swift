extension Event {
    /// The most stacks one device's events may create over its whole log (docs/events.md,
    /// limits): ten times the stacks one layout may list, so that the engine's work per
    /// event stays bounded.
    public static let maximumStacksPerDevice = 10_000

    /// Calls `body` with each stack the event creates when its device does not have it yet
    /// (`stack.created`, `stack.widgetAdded`, `stack.layoutObserved`), in the event's order.
    public func forEachCreatedStack(_ body: (String) throws -> Void) rethrows {
        switch self.body {
        case .stackCreated(let created): try body(created.stack)
        case .widgetAdded(let added): try body(added.stack)
        case .layoutObserved(let layout): for stack in layout.stacks { try body(stack.stack) }
        default: break
        }
    }

    /// Whether events of this type can create a stack (`forEachCreatedStack`).
    public static func canCreateStacks(type: String) -> Bool {
        type == EventType.stackCreated.rawValue || type == EventType.widgetAdded.rawValue
            || type == EventType.layoutObserved.rawValue
    }
}

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

/// A stack as its device and id.
public struct StackName: Hashable, Comparable, Sendable {
    /// The device's name.
    public var device: String
    /// The stack's id.
    public var stack: String

    /// The stack `stack` of `device`.
    public init(device: String, stack: String) {
        self.device = device
        self.stack = stack
    }

    public static func < (a: StackName, b: StackName) -> Bool { (a.device, a.stack) < (b.device, b.stack) }
}

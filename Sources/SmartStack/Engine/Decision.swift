public import RecordFormat

/// A widget as decisions and states name it.
public struct WidgetIdentity: Hashable, Sendable {
    /// The instance id (`sys:<app>/<kind>` for a system-placed widget).
    public var instance: String
    /// The widget kind.
    public var kind: String
    /// The app's bundle id.
    public var app: String

    /// Creates an identity.
    public init(instance: String, kind: String, app: String) {
        self.instance = instance
        self.kind = kind
        self.app = app
    }
}

/// What a decision did.
public enum DecisionAction: String, Sendable {
    /// The system rotated the stack to a widget (Smart Rotate).
    case rotate
    /// The person scrolled the stack to a widget.
    case scroll
    /// The system inserted a widget as a suggestion (or a watchOS relevance card).
    case suggest
    /// The system removed a suggestion.
    case unsuggest
    /// The widget stayed on top.
    case keep
}

/// Whether a reason rests on Apple's documentation or on our policy.
public enum ReasonBasis: String, Sendable {
    /// A documented rule; `rule` is its id in the domain reference (R1, S2, ...).
    case documented
    /// A policy parameter; `rule` is the parameter's name.
    case policy
}

/// One reason behind a decision or a verdict, with the stored events it rests on.
public struct Reason: Hashable, Sendable {
    /// The reason code (queries.md).
    public var code: String
    /// Documentation or policy.
    public var basis: ReasonBasis
    /// The rule id or the policy parameter.
    public var rule: String
    /// A sentence a person can follow.
    public var detail: String
    /// Sequence numbers of the events it rests on, ascending.
    public var events: [UInt64]
    /// The policy parameters it rests on (`rule` first); empty for a documented reason.
    public var parameters: [String]

    /// Creates a reason. A policy reason rests on `rule` and on any further `parameters`.
    public init(
        _ code: ReasonCode, _ basis: ReasonBasis, _ rule: String, _ detail: String, events: [UInt64],
        parameters: [String] = []
    ) {
        self.init(code: code.rawValue, basis, rule, detail, events: events, parameters: parameters)
    }

    /// Creates a reason from a stored code (a checkpoint's).
    init(code: String, _ basis: ReasonBasis, _ rule: String, _ detail: String, events: [UInt64], parameters: [String]) {
        self.code = code
        self.basis = basis
        self.rule = rule
        self.detail = detail
        if basis == .policy {
            var all = [rule]
            for p in parameters where !all.contains(p) { all.append(p) }
            self.parameters = all
        } else {
            self.parameters = []
        }
        var sorted = events
        if sorted.count > 1 {
            sorted.sort()
            var unique = 1
            for k in 1..<sorted.count where sorted[k] != sorted[unique - 1] {
                sorted[unique] = sorted[k]
                unique += 1
            }
            sorted.removeLast(sorted.count - unique)
        }
        self.events = sorted
    }
}

/// One decision of the engine: a rotation, a scroll, a suggestion, its removal.
public struct Decision: Hashable, Sendable {
    /// When it was made.
    public var time: Timestamp
    /// The device.
    public var device: String
    /// The stack.
    public var stack: String
    /// What was done.
    public var action: DecisionAction
    /// The widget acted on.
    public var widget: WidgetIdentity
    /// The top before.
    public var from: WidgetIdentity?
    /// The top after.
    public var top: WidgetIdentity?
    /// Why.
    public var reasons: [Reason]
    /// What the decision rests on that the log does not record for its instant.
    public var assumptions: [Assumption] = []
}

/// Every reason code an answer can carry (`docs/queries.md`, "Reason codes"); the engine
/// makes reasons from these cases only.
public enum ReasonCode: String, CaseIterable, Sendable {
    // What put a widget on top or in the stack.
    /// A timeline entry's relevance.
    case relevanceScore = "RELEVANCE_SCORE"
    /// A relevant shortcut's window, or usage standing in for it.
    case relevantShortcut = "RELEVANT_SHORTCUT"
    /// A pattern learned from donations.
    case donationPattern = "DONATION_PATTERN"
    /// A relevant intent or relevance attribute whose context matches.
    case relevantContext = "RELEVANT_CONTEXT"
    /// The person scrolled the stack.
    case userScrolled = "USER_SCROLLED"
    /// A recorded layout names the member the person selected, in a stack whose Smart
    /// Rotate is recorded off: nothing else moves its top (G1).
    case userSelected = "USER_SELECTED"
    /// The person pinned the widget.
    case pinned = "PINNED"
    /// Nothing better: the widget stays.
    case kept = "KEPT"
    /// The comparison that chose one eligible widget over others.
    case rankedFirst = "RANKED_FIRST"

    // Why a widget is not on top or not suggested.
    /// No event in the log names the widget.
    case unknownWidget = "UNKNOWN_WIDGET"
    /// Smart Rotate or Widget Suggestions are off for the stack.
    case stackToggleOff = "STACK_TOGGLE_OFF"
    /// The widget's families do not include the stack's.
    case familyMismatch = "FAMILY_MISMATCH"
    /// The stack holds as many widgets as it can.
    case stackFull = "STACK_FULL"
    /// The signal acts on another platform.
    case platformIgnoresSignal = "PLATFORM_IGNORES_SIGNAL"
    /// No window, score, clue or pattern is active now.
    case noActiveRelevance = "NO_ACTIVE_RELEVANCE"
    /// WidgetKit would not ask for a newer timeline yet.
    case reloadNotDue = "RELOAD_NOT_DUE"
    /// The kind's reload budget is spent.
    case reloadBudgetSpent = "RELOAD_BUDGET_SPENT"
    /// A later relevant shortcut set omitted the kind.
    case relevantShortcutInvalidated = "RELEVANT_SHORTCUT_INVALIDATED"
    /// The shortcut's provider window is not open.
    case providerWindowClosed = "PROVIDER_WINDOW_CLOSED"
    /// The provider's type does not open Widget Suggestions under the policy.
    case providerTypeUnsupported = "PROVIDER_TYPE_UNSUPPORTED"
    /// The donations' parameters do not match the widget's configuration.
    case donationNoMatch = "DONATION_NO_MATCH"
    /// The matching donations were deleted.
    case donationDeleted = "DONATION_DELETED"
    /// Too few matching donations for a pattern.
    case patternNotLearned = "PATTERN_NOT_LEARNED"
    /// A matching clue needs a permission the app lacks.
    case permissionMissing = "PERMISSION_MISSING"
    /// Another card of the same relevance group is shown.
    case groupSuppressed = "GROUP_SUPPRESSED"
    /// Another instance of the kind is in a stack already.
    case alreadyInStack = "ALREADY_IN_STACK"
    /// A daily cap or a dismissal's cooldown holds it back.
    case rateLimited = "RATE_LIMITED"
    /// Another widget ranks at least as high.
    case outranked = "OUTRANKED"
}

import RecordFormat

/// A widget the person configured into a stack (or a kept suggestion).
struct Member: Hashable {
    var widget: WidgetIdentity
    var family: String
    /// The configuration intent's type name; nil for a static widget.
    var intent: String?
    /// Configuration parameters: name to canonical JSON value.
    var parameters: [String: String]
    /// Where the person pinned it (W6): its position among the shown widgets then; nil
    /// when it is not pinned.
    var pinnedAt: Int?
    var addedSeq: UInt64
    /// The widget extension's bundle id, when an event recorded it (device records name
    /// widgets by it).
    var extensionBundle: String? = nil

    var pinned: Bool { pinnedAt != nil }
}

/// A widget the system placed in a stack: a Widget Suggestion (iOS, iPadOS) or a
/// relevance card (watchOS).
struct ShownSuggestion: Hashable {
    var widget: WidgetIdentity
    /// What keeps it shown (the candidate's source); it goes when that source does.
    var source: String
    var since: Int64
    var reasons: [Reason]
    /// The relevance group (W4) of a watchOS card.
    var group: String?
    /// Its rank when placed (a suggestion's rank depends only on its kind of signal).
    var rank: Double
}

/// One Smart Stack's state.
struct StackState: Hashable {
    var id: String
    var platform: String
    var family: String
    var smartRotate: Bool
    var widgetSuggestions: Bool
    var members: [Member] = []
    /// Newest first.
    var suggestions: [ShownSuggestion] = []
    /// The instance on top, nil for an empty stack.
    var top: String?
    /// The decision that put `top` there, if the system or a scroll did.
    var topDecision: Decision?
    /// The member that was on top before a suggestion took the top.
    var restingTop: String?
    /// Smart Rotate waits until then after the person scrolled.
    var holdUntil: Int64 = .min
    /// Kinds (`app/kind`) not to suggest again before a time, after a dismissal.
    var dismissedUntil = SortedTable<Int64>()
    var createdSeq: UInt64
    var settingsSeq: UInt64
    /// The layout this stack's members and switches come from (`docs/events.md`,
    /// "Observed layouts"), when one set them.
    var observedLayout = StackLayoutSource()

    var isWatch: Bool { platform == "watchOS" }

    /// Every widget shown, in order: suggestions (newest first), then members.
    var shown: [WidgetIdentity] { suggestions.map(\.widget) + members.map(\.widget) }

    /// The shown order with pins held (W6): suggestions (newest first) and the members
    /// that are not pinned flow around the pinned members, each of which stays at the
    /// position where it was pinned (or last, when fewer widgets are shown). Each entry is
    /// a suggestion's index (`.suggestion`) or a member's (`.member`).
    var layout: [ShownSlot] {
        var out = suggestions.indices.map { ShownSlot.suggestion($0) }
        out += members.indices.filter { members[$0].pinnedAt == nil }.map { ShownSlot.member($0) }
        let pins = members.indices.filter { members[$0].pinnedAt != nil }
            .sorted { (members[$0].pinnedAt!, $0) < (members[$1].pinnedAt!, $1) }
        for j in pins { out.insert(.member(j), at: min(members[j].pinnedAt!, out.count)) }
        return out
    }

    func member(_ instance: String) -> Member? { members.first { $0.widget.instance == instance } }

    func holds(app: String, kind: String) -> Bool {
        members.contains { $0.widget.app == app && $0.widget.kind == kind }
            || suggestions.contains { $0.widget.app == app && $0.widget.kind == kind }
    }

    func identity(_ instance: String?) -> WidgetIdentity? {
        guard let instance else { return nil }
        if let s = suggestions.first(where: { $0.widget.instance == instance }) { return s.widget }
        return members.first { $0.widget.instance == instance }?.widget
    }

    /// Makes the first widget the top when the top is gone.
    mutating func repairTop() {
        if let t = top, identity(t) != nil { return }
        top =
            restingTop.flatMap { identity($0) != nil ? $0 : nil } ?? members.first?.widget.instance
            ?? suggestions.first?.widget.instance
        topDecision = nil
    }
}

/// A place in a stack's shown order: a suggestion or a member, by index.
enum ShownSlot: Hashable {
    case suggestion(Int)
    case member(Int)
}

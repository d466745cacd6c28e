import RecordFormat
package import SmartStack

/// The names of the stack and widget an event concerns, as far as the event gives them.
package struct EventNames: Equatable, Sendable {
    package var stack: String?
    package var instance: String?
    package var app: String?
    package var extensionBundle: String?
    package var kind: String?

    /// Names given one by one.
    package init(
        stack: String? = nil, instance: String? = nil, app: String? = nil, extensionBundle: String? = nil,
        kind: String? = nil
    ) {
        (self.stack, self.instance, self.app, self.extensionBundle, self.kind) = (
            stack, instance, app, extensionBundle, kind
        )
    }

    /// The names `event` gives.
    package init(_ event: Event) {
        app = event.envelope.app
        extensionBundle = event.extensionBundle
        switch event.body {
        case .stackCreated(let s): stack = s.stack
        case .stackSettingsChanged(let s): stack = s.stack
        case .widgetAdded(let a):
            (stack, instance, app, kind) = (a.stack, a.widget.instance, a.widget.app, a.widget.kind)
            extensionBundle = a.widget.extensionBundle
        case .widgetRemoved(let s), .widgetPinned(let s), .widgetUnpinned(let s), .scrolled(let s):
            (stack, instance) = (s.stack, s.instance)
        case .widgetMoved(let m): (stack, instance) = (m.stack, m.instance)
        case .suggestionKept(let s): (stack, instance, kind) = (s.stack, s.instance, s.kind)
        case .suggestionDismissed(let s): (stack, instance, kind) = (s.stack, s.instance, s.kind)
        case .widgetViewed(let e), .widgetTapped(let e): (stack, instance, kind) = (e.stack, e.instance, e.kind)
        case .widgetTimeline(let t): (instance, kind) = (t.instance, t.kind)
        case .widgetDeclared(let d): kind = d.kind
        case .reloadRequested(let r): kind = r.kind
        case .widgetReloaded(let r): (instance, kind) = (r.instance, r.kind)
        case .widgetRelevance(let r): kind = r.kind
        case .stackObserved(let o): (stack, instance, kind) = (o.stack, o.instance, o.kind)
        case .stackRemoved(let r): stack = r.stack
        case .stackRotated(let r):
            (stack, instance, kind) = (r.stack, r.instance, r.kind)
            extensionBundle = r.extensionBundle ?? extensionBundle
        case .suggestionObserved(let o):
            (stack, instance, kind) = (o.stack, o.instance, o.kind)
            extensionBundle = o.extensionBundle ?? extensionBundle
        case .relevanceObserved(let o):
            kind = o.kind
            extensionBundle = o.extensionBundle ?? extensionBundle
        default: break
        }
    }

    /// The widget as a sentence names it: its kind, else its instance, else its extension
    /// or app.
    package var widget: String { kind ?? instance ?? extensionBundle ?? app ?? "a widget" }
}

/// One human sentence for a stored event: what the app sent, what the person did, or what
/// the device recorded. A timeline's `message`.
package enum EventSentence {
    /// The sentence for `event`.
    package static func text(_ event: Event) -> String {
        let names = EventNames(event)
        let app = event.envelope.app ?? "an app"
        let inStack = names.stack.map { " in stack \($0)" } ?? ""
        switch event.body {
        case .stackCreated(let s):
            return
                "Stack \(s.stack) was created (\(s.family) on \(s.platform); Smart Rotate \(onOff(s.smartRotate)), Widget Suggestions \(onOff(s.widgetSuggestions)))"
        case .stackSettingsChanged(let s):
            var changes = [String]()
            if let r = s.smartRotate { changes.append("Smart Rotate \(onOff(r))") }
            if let w = s.widgetSuggestions { changes.append("Widget Suggestions \(onOff(w))") }
            return "Stack \(s.stack)'s settings changed: " + changes.joined(separator: ", ")
        case .widgetAdded(let a): return "\(a.widget.kind) (\(a.widget.app)) was added to stack \(a.stack)"
        case .widgetRemoved(let s): return "Widget \(s.instance) was removed from stack \(s.stack)"
        case .widgetMoved(let m): return "Widget \(m.instance) was moved to position \(m.position) in stack \(m.stack)"
        case .widgetPinned(let s): return "Widget \(s.instance) was pinned in stack \(s.stack)"
        case .widgetUnpinned(let s): return "Widget \(s.instance) was unpinned in stack \(s.stack)"
        case .scrolled(let s): return "The person scrolled stack \(s.stack) to \(s.instance)"
        case .suggestionKept(let s): return "The person kept the suggested \(s.kind) in stack \(s.stack)"
        case .suggestionDismissed: return "The person dismissed the suggested \(names.widget)\(inStack)"
        case .widgetViewed(let e): return "The person viewed \(names.widget)\(inStack)\(seconds(e.duration))"
        case .widgetTapped: return "The person tapped \(names.widget)\(inStack)"
        case .appForeground(let f): return "\(app) was in the foreground\(seconds(f.duration))"
        case .widgetTimeline(let t):
            return
                "\(app) delivered a timeline of \(t.entries.count) \(t.entries.count == 1 ? "entry" : "entries") for \(t.kind)"
        case .widgetDeclared(let d):
            return "\(app) declared widget \(d.kind) (\(d.families.joined(separator: ", ")))"
        case .reloadRequested(let r):
            return r.kind.map { "\(app) asked to reload \($0)" } ?? "\(app) asked to reload all its widgets"
        case .widgetReloaded(let r):
            return "The system reloaded \(app)'s \(r.kind)" + (r.reason.map { " (\($0))" } ?? "")
        case .intentDonated(let d): return "\(app) donated the intent \(d.intent.name)"
        case .donationsDeleted: return "\(app) deleted intent donations"
        case .relevantShortcuts(let s):
            return "\(app) set \(s.shortcuts.count) relevant shortcut\(s.shortcuts.count == 1 ? "" : "s")"
        case .relevantIntents(let s):
            return "\(app) set \(s.intents.count) relevant intent\(s.intents.count == 1 ? "" : "s")"
        case .widgetRelevance(let r):
            return
                "\(app) answered relevance for \(r.kind) with \(r.attributes.count) attribute\(r.attributes.count == 1 ? "" : "s")"
        case .contextChanged(let c):
            return "The context \(c.context.canonicalText) became \(c.active ? "active" : "inactive")"
        case .permissionChanged(let p):
            return "\(app)'s \(p.permission) permission was \(p.granted ? "granted" : "withdrawn")"
        case .deviceInfo(let d):
            return "The device runs \(d.platform) \(d.osVersion)" + (d.timeZone.map { " in the time zone \($0)" } ?? "")
        case .developerMode(let d): return "WidgetKit Developer Mode was turned \(onOff(d.enabled))"
        case .stackObserved(let o):
            if o.scope == .stack
                || (o.scope == nil && event.extras.contains { $0.key == "inStack" && $0.value == .bool(true) })
            {
                return
                    "The device recorded the stack holding \(names.widget) \(o.onScreen ? "on screen" : "off screen")\(inStack)\(seconds(o.duration, lead: " for")); it does not record which member was on top"
            }
            return
                "The device recorded \(names.widget) \(o.onScreen ? "on screen" : "off screen")\(inStack)\(seconds(o.duration, lead: " for"))"
        case .layoutObserved(let l):
            return
                "The device recorded its layout (\(l.method)): \(l.stacks.count) stack\(l.stacks.count == 1 ? "" : "s"), \(l.widgets?.count ?? 0) single widget\((l.widgets?.count ?? 0) == 1 ? "" : "s")"
        case .stackRemoved(let r): return "Stack \(r.stack) was removed"
        case .stackRotated(let r):
            return "The device recorded a Smart Rotate to \(names.widget)\(inStack)"
                + (r.criterion.map { " (criterion \($0)" + (r.staleness == true ? ", a staleness rotation)" : ")") }
                    ?? "")
        case .suggestionObserved: return "The device recorded the suggested \(names.widget) appearing\(inStack)"
        case .relevanceObserved(let o):
            let score = o.relevance.map { "relevance \(number($0.score))" } ?? "no relevance score"
            return "The device recorded \(score) for \(names.widget)'s entry at \(o.date.rfc3339)"
        }
    }

    static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

    static func seconds(_ duration: Double?, lead: String = " for") -> String {
        duration.map { "\(lead) \(number($0)) s" } ?? ""
    }

    static func number(_ value: Double) -> String {
        var w = CanonicalWriter(capacity: 24)
        w.number(value)
        return w.text
    }
}

package import Ledger
package import SmartStack

/// How `state` and the answers that quote it read as text.
package enum StateText {
    /// `state`'s text: each stack, its members in order, the top and why it is there.
    package static func text(_ s: DeviceSnapshot, verified: Bool, policy: Policy) -> String {
        var out =
            "\(s.device.shown) at \(LocalTime.display(s.at))  (policy \(policy.name) v\(Policy.version) \(policy.digest))\n"
        if !verified { out += "UNVERIFIED: the store failed its quick check; answered because of --force\n" }
        if s.stacks.isEmpty { out += "  no stacks\n" }
        for stack in s.stacks {
            let toggles =
                "Smart Rotate \(stack.smartRotate ? "on" : "off"), Widget Suggestions \(stack.widgetSuggestions ? "on" : "off")"
            out += "\(stack.stack.shown) (\(stack.platform.shown); \(toggles))\n"
            out +=
                "  top: "
                + (stack.top.map {
                    "\($0.widget.instance.shown) \($0.widget.kind.shown)" + ($0.suggested ? " (suggested)" : "")
                } ?? "none (empty stack)") + "\n"
            for g in stack.widgets {
                var line = "  \(g.position) \(g.widget.instance.shown)  \(g.widget.kind.shown)  \(g.widget.app.shown)"
                if g.suggested { line += "  suggested" }
                if g.pinned { line += "  pinned" }
                if let r = g.relevance {
                    line +=
                        "  score \(number(r.score)) (normalised \(number(r.normalized.roundedForDisplay))) since \(clock(r.since))"
                    line += r.until.map { " until \(clock($0))" } ?? " until the next entry"
                    line += " [event \(r.event)]"
                }
                if let e = g.entry { line += "  shows the \(clock(e.date)) entry [event \(e.event)]" }
                out += line + "\n"
            }
            if let d = stack.decision {
                out +=
                    "  put on top by: \(d.action.rawValue) at \(clock(d.time))"
                    + (d.reasons.first.map { ", \($0.code): \($0.detail.shown)" } ?? "") + "\n"
            }
        }
        out += assumptionsText(s.assumptions)
        return out
    }

    /// The assumptions under an answer, one a line; empty when there are none.
    package static func assumptionsText(_ assumptions: [Assumption]) -> String {
        guard !assumptions.isEmpty else { return "" }
        var out = "assumptions:\n"
        for a in assumptions {
            out += "  \(a.code) \(a.stack.shown)"
            if let i = a.instance { out += " \(i.shown)" }
            out += ": \(a.detail.shown)"
            if !a.events.isEmpty { out += " [events " + a.events.map(String.init).joined(separator: ", ") + "]" }
            out += "\n"
        }
        return out
    }

    /// A number as the canonical form writes it.
    package static func number(_ d: Double) -> String {
        var w = CanonicalWriter(capacity: 16)
        w.number(d)
        return w.text
    }

    /// The local time of day of `t`.
    package static func clock(_ t: Timestamp) -> String {
        let text = LocalTime.display(t)
        return String(text.split(separator: " ").dropFirst().first ?? Substring(text))
    }
}

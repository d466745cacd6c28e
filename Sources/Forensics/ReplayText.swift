package import SmartStack

/// How `replay` prints a decision and a disagreement with the device's own records.
package enum ReplayText {
    /// One decision as `replay` prints it: the line, then each reason with its basis and events.
    package static func text(_ decision: Decision) -> String {
        var line =
            "\(LocalTime.display(decision.time))  \(decision.stack.shown)  \(decision.action.rawValue) \(decision.widget.kind.shown) (\(decision.widget.instance.shown))"
        if let from = decision.from, decision.action != .unsuggest || from.instance != decision.widget.instance {
            line += " from \(from.kind.shown)"
        }
        line += "\n"
        for reason in decision.reasons {
            line += "    \(reason.code) [\(ReasonText.basis(reason))] \(reason.detail.shown)"
            if !reason.events.isEmpty { line += "; events " + reason.events.map(String.init).joined(separator: ", ") }
            line += "\n"
        }
        for a in decision.assumptions { line += "    assumes \(a.code): \(a.detail.shown)\n" }
        return line
    }

    /// One disagreement as `replay --disagreements` prints it.
    package static func text(_ observation: Explainer.Observation) -> String {
        "\(LocalTime.display(observation.time))  \(observation.stack.shownOrDash)  event \(observation.event): \(observation.detail.shown)\n"
    }

    /// One disagreement as a line of `replay --disagreements --json`.
    package static func writeJSON(_ w: inout CanonicalWriter, _ observation: Explainer.Observation, device: String) {
        w.beginObject()
        w.key("event")
        w.integer(Int(observation.event))
        w.key("time")
        w.time(observation.time)
        w.key("device")
        w.string(device)
        w.key("stack")
        if let stack = observation.stack { w.string(stack) } else { w.null() }
        w.key("scope")
        w.string(observation.scope.rawValue)
        w.key("agrees")
        w.bool(observation.agrees)
        w.key("judgement")
        w.string(observation.judgement)
        w.key("detail")
        w.string(observation.detail)
        w.endObject()
    }

    /// The closing lines of `replay --disagreements`: how many records that name the widget
    /// shown agree and disagree, how many say only that a stack was on screen, and how many
    /// could not be judged, by cause.
    package static func disagreementSummary(_ all: [Explainer.Observation]) -> String {
        let onTop = all.filter(\.judgedOnTop)
        let disagreeing = onTop.filter { !$0.agrees }.count
        let agreeing = onTop.count - disagreeing
        var out =
            "\(onTop.count) record\(onTop.count == 1 ? " names" : "s name") the widget shown: \(agreeing) agree\(agreeing == 1 ? "s" : "") with the model, \(disagreeing) disagree\(disagreeing == 1 ? "s" : "")\n"
        let stackScope = all.filter { $0.unjudged == nil && $0.scope == .stack }
        if !stackScope.isEmpty {
            let consistent = stackScope.filter(\.agrees).count
            out +=
                "\(stackScope.count) record\(stackScope.count == 1 ? " says" : "s say") only that the stack was on screen (the record cannot say which member was on top): \(consistent) consistent with the model's layout, \(stackScope.count - consistent) where the layout differs\n"
        }
        let unjudged = all.compactMap(\.unjudged)
        if !unjudged.isEmpty {
            out += "\(unjudged.count) could not be judged:"
            for cause in Explainer.Observation.Cause.allCases {
                let n = unjudged.filter { $0 == cause }.count
                if n > 0 { out += " \(cause.text) (\(n))" + (cause == unjudged.last ? "" : ";") }
            }
            out += "\n"
        }
        let matched = all.compactMap(\.matchedBy)
        if !matched.isEmpty {
            let counts = MatchBasis.allCases.map { basis in "\(basis.text) \(matched.filter { $0 == basis }.count)" }
            out += "matched to the model's widgets: " + counts.joined(separator: ", ") + "\n"
        }
        return out
    }
}

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
        w.key("agrees")
        w.bool(observation.agrees)
        w.key("detail")
        w.string(observation.detail)
        w.endObject()
    }

    /// The closing lines of `replay --disagreements`: how many judged observations
    /// disagree, and how many could not be judged, by cause.
    package static func disagreementSummary(judged: [Explainer.Observation], all: [Explainer.Observation]) -> String {
        let disagreeing = judged.filter { !$0.agrees }.count
        var out = "\(disagreeing) of \(judged.count) observations disagree with the model\n"
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

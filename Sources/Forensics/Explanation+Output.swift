package import Ledger
import Projections
package import SmartStack

extension Explainer.Explanation {
    /// The sequence numbers of every event a reason or an observation cites.
    package var citedSeqs: [UInt64] {
        var cited = Set<UInt64>()
        for r in (stack.decision?.reasons ?? []) + (verdict?.reasons ?? []) + candidates.flatMap(\.reasons) {
            cited.formUnion(r.events)
        }
        cited.formUnion(observed.map(\.event))
        for a in stack.assumptions { cited.formUnion(a.events) }
        return cited.sorted()
    }

    /// `why --json` as queries.md gives it, plus `cited`: each cited event as `log --json`
    /// prints it (with its `source` when imported).
    package func writeJSON(_ w: inout CanonicalWriter, verified: Bool, policy: Policy, tool: String, ledger: Ledger)
        throws
    {
        w.beginObject()
        w.key("at")
        w.time(at)
        w.key("stack")
        w.string(stack.stack)
        w.key("verified")
        w.bool(verified)
        try writeCheck(&w, ledger: ledger)
        ProjectionJSON.writeHeader(&w, policy: policy, tool: tool)
        w.key("top")
        ProjectionJSON.write(&w, stack.top?.widget) { w in
            w.key("suggested")
            w.bool(stack.top?.suggested ?? false)
        }
        w.key("decision")
        if let decision = stack.decision { ProjectionJSON.write(&w, decision) } else { w.null() }
        if let verdict = verdict {
            w.key("widget")
            w.beginObject()
            w.key("query")
            w.string(verdict.query)
            w.key("onTop")
            w.bool(verdict.onTop)
            w.key("suggested")
            w.bool(verdict.suggested)
            w.key("reasons")
            w.beginArray()
            for reason in verdict.reasons { ProjectionJSON.write(&w, reason) }
            w.endArray()
            w.endObject()
        }
        w.key("candidates")
        w.beginArray()
        for candidate in candidates {
            w.beginObject()
            w.key("instance")
            w.string(candidate.widget.instance)
            w.key("kind")
            w.string(candidate.widget.kind)
            w.key("app")
            w.string(candidate.widget.app)
            w.key("score")
            if let score = candidate.score { w.number(score) } else { w.null() }
            w.key("normalized")
            if let normalized = candidate.normalized { w.number(normalized.roundedForDisplay) } else { w.null() }
            w.key("rank")
            if let rank = candidate.rank { w.number(rank.roundedForDisplay) } else { w.null() }
            w.key("eligible")
            w.bool(candidate.eligible)
            w.key("suggested")
            w.bool(candidate.suggested)
            w.key("reasons")
            w.beginArray()
            for reason in candidate.reasons { ProjectionJSON.write(&w, reason) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("observed")
        w.beginArray()
        for observation in observed {
            w.beginObject()
            w.key("event")
            w.integer(Int(observation.event))
            w.key("time")
            w.time(observation.time)
            w.key("scope")
            w.string(observation.scope.rawValue)
            w.key("agrees")
            if observation.judgedOnTop { w.bool(observation.agrees) } else { w.null() }
            w.key("judgement")
            w.string(observation.judgement)
            w.key("detail")
            w.string(observation.detail)
            if let cause = observation.unjudged {
                w.key("unjudged")
                w.string(cause.text)
            }
            w.endObject()
        }
        w.endArray()
        w.key("assumptions")
        ProjectionJSON.write(&w, stack.assumptions)
        w.key("cited")
        w.beginArray()
        try ledger.read { reader in
            for seq in citedSeqs {
                try reader.withRecord(seq) { view in
                    try view.writeStoredJSON(&w)
                }
            }
        }
        w.endArray()
        w.endObject()
    }

    /// A short paragraph a person can follow, then the cited events.
    package func text(verified: Bool, ledger: Ledger, policy: Policy) throws -> String {
        var out = ""
        let when = StateText.clock(at)
        if !verified { out += "UNVERIFIED: the store failed its quick check; answered because of --force.\n" }
        if let top = stack.top {
            out +=
                "At \(when) on \(stack.stack.shown) (\(stack.platform.shown)), \(top.widget.kind.shown) (\(top.widget.instance.shown)) is on top"
            out += top.suggested ? ", placed there by the system.\n" : ".\n"
            if let decision = stack.decision {
                out += "  \(ReasonText.sentence(for: decision)) at \(StateText.clock(decision.time)):\n"
                for reason in decision.reasons { out += "    " + ReasonText.line(reason) + "\n" }
            } else {
                out += "  No decision moved it there: it has been on top since the stack was set up.\n"
            }
            if let kept = candidates.first(where: { $0.widget.instance == top.widget.instance })?.reasons.filter({
                $0.code == "KEPT"
            }), !kept.isEmpty {
                out += "  It is still there:\n"
                for reason in kept { out += "    " + ReasonText.line(reason) + "\n" }
            }
        } else {
            out += "At \(when) \(stack.stack.shown) is empty.\n"
        }
        if let verdict = verdict {
            let state =
                verdict.onTop
                ? "is on top" : verdict.suggested ? "is shown as a suggestion" : "is not on top and not suggested"
            out += "\n\(verdict.query.shown) \(state):\n"
            for reason in verdict.reasons { out += "    " + ReasonText.line(reason) + "\n" }
        }
        let others = candidates.filter { $0.widget.instance != stack.top?.widget.instance }
        if !others.isEmpty {
            out += "\nOther candidates:\n"
            for candidate in others {
                var head = "  \(candidate.widget.kind.shown) (\(candidate.widget.instance.shown))"
                if let score = candidate.score { head += ", score \(StateText.number(score))" }
                if let normalized = candidate.normalized {
                    head += ", normalised \(StateText.number(normalized.roundedForDisplay))"
                }
                head += candidate.eligible ? ", eligible" : ", not eligible"
                out += head + ":\n"
                for reason in candidate.reasons { out += "    " + ReasonText.line(reason) + "\n" }
            }
        }
        for observation in observed {
            out +=
                "\nThe device's own record (event \(observation.event), \(StateText.clock(observation.time))): \(observation.detail.shown) — \(observation.disagrees ? "DISAGREES" : observation.unjudged != nil ? "not judged" : observation.judgement).\n"
        }
        if !stack.assumptions.isEmpty { out += "\n" + StateText.assumptionsText(stack.assumptions) }
        let cited = citedSeqs
        if !cited.isEmpty {
            out += "\nEvents cited:\n"
            try ledger.read { reader in
                let local = try LocalTime(reader: reader)
                for seq in cited {
                    try reader.withRecord(seq) { view in
                        out += "  " + LogText.line(view: view, event: try Event(record: view), local: local)
                    }
                }
            }
        }
        out +=
            "\n(\(policy.name) v\(Policy.version) \(policy.digest): StackLedger's model of the Smart Stack, not Apple's algorithm; "
        out += "\"Apple\" marks a documented rule, \"policy\" one of the model's parameters.)\n"
        return out
    }
}

/// How reasons and decisions read in text output.
package enum ReasonText {
    /// The sentence that says how a decision put a widget where it is.
    package static func sentence(for d: Decision) -> String {
        switch d.action {
        case .rotate: return "Smart Rotate rotated to it" + (d.from.map { " from \($0.kind.shown)" } ?? "")
        case .scroll: return "The person scrolled to it"
        case .suggest: return "The system placed it as a suggestion" + (d.from.map { " above \($0.kind.shown)" } ?? "")
        case .unsuggest: return "It came back on top when the suggestion \(d.widget.kind.shown) was removed"
        case .keep: return "It was kept"
        }
    }

    /// "Apple, rule R2", or "policy, " and the parameters a policy reason rests on.
    package static func basis(_ r: Reason) -> String {
        r.basis == .documented ? "Apple, rule \(r.rule)" : "policy, " + r.parameters.joined(separator: ", ")
    }

    /// One reason as a line: code, basis, detail and the events it cites.
    package static func line(_ r: Reason) -> String {
        var s = "\(r.code) [\(basis(r))] \(r.detail.shown)"
        if !r.events.isEmpty { s += " (events " + r.events.map(String.init).joined(separator: ", ") + ")" }
        return s
    }
}

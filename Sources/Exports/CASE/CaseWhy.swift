package import Forensics
package import Ledger
package import SmartStack

/// `why --format case`: the answer as a CASE/UCO bundle another lab can check: the analysis
/// as an investigative action whose instrument is StackLedger configured with its policy,
/// the conclusion and each reason with its basis, the assumptions, the device's own records
/// compared with the model, every cited event as a provenance record of its artifact, and
/// the store's chain head.
package enum CaseWhy {
    /// Writes the bundle of `explanation` through `flush`.
    package static func write(
        _ explanation: Explainer.Explanation, question: String, tool: String, policy: Policy, ledger: Ledger,
        flush: @escaping ([UInt8]) throws -> Void
    ) throws {
        var bundle = CaseProvenance(graph: CaseGraphWriter(flush: flush))
        let version = tool.split(separator: " ").last.map(String.init) ?? tool
        let instrument = try bundle.writeTool(version: version, policy: policy)
        try bundle.writeEvents(explanation.citedSeqs, ledger: ledger)
        let head = try ledger.read { try $0.chainHead() }?.description ?? "empty store"
        let action = CaseGraphWriter.iri("InvestigativeAction", "why \(question) \(head)")
        let stack = explanation.stack
        var results = [String]()
        func annotate(_ kind: String, _ statement: String, tags: [String], cites: [UInt64]) throws {
            let iri = CaseGraphWriter.iri("Annotation", "\(action) \(kind) \(results.count) \(statement)")
            try bundle.writeAnnotation(
                iri, statement: statement, tags: tags, objects: bundle.objects(citing: cites, fallback: action))
            results.append(iri)
        }
        var conclusion = "\(policy.name) model, at \(explanation.at.rfc3339), stack \(stack.stack): "
        if let top = stack.top {
            conclusion += "\(top.widget.kind) (\(top.widget.instance)) is on top"
            if let decision = stack.decision { conclusion += ". " + ReasonText.sentence(for: decision) }
        } else {
            conclusion += "no widget is on top"
        }
        // The decision that put the top there, and why it is still there.
        let kept =
            stack.top.flatMap { top in
                explanation.candidates.first { $0.widget.instance == top.widget.instance }?.reasons.filter {
                    $0.code == ReasonCode.kept.rawValue
                }
            } ?? []
        let topReasons = (stack.decision?.reasons ?? []) + kept
        if stack.decision == nil && stack.top != nil { conclusion += ": no decision moved it there" }
        try annotate("conclusion", conclusion, tags: ["conclusion"], cites: topReasons.flatMap(\.events))
        for reason in topReasons { try annotate("reason", line(reason), tags: tags(reason), cites: reason.events) }
        if let verdict = explanation.verdict {
            let answer =
                "\(policy.name) model: \(verdict.query) is \(verdict.onTop ? "" : "not ")on top"
                + (verdict.suggested ? " and is suggested" : "")
            try annotate("verdict", answer, tags: ["widget"], cites: verdict.reasons.flatMap(\.events))
            for reason in verdict.reasons {
                try annotate("reason", line(reason), tags: tags(reason) + ["widget"], cites: reason.events)
            }
        }
        for assumption in stack.assumptions {
            try annotate(
                "assumption", "Assumes \(assumption.code): \(assumption.detail)",
                tags: ["assumption", assumption.code],
                cites: assumption.events)
        }
        for observed in explanation.observed {
            let judgement = observed.judgement
            try annotate(
                "observation", "Device record: \(observed.detail) (\(judgement))", tags: ["device-record", judgement],
                cites: [observed.event])
        }
        try annotate(
            "chain-head", "The StackLedger store's chain head when answering: \(head)", tags: ["chain-head"], cites: [])
        try bundle.writeAction(
            action, name: "StackLedger why: \(question)",
            description:
                "Why stack \(stack.stack) showed what it did at \(explanation.at.rfc3339), answered by StackLedger's \(policy.name) model from the stored events",
            instrument: instrument, results: results + bundle.provenanceIRIs)
        try bundle.graph.finish()
    }

    /// A reason as one line: code, basis, rule, parameters and detail.
    static func line(_ r: Reason) -> String {
        "\(r.code) [\(r.basis.rawValue), rule \(r.rule)\(r.parameters.isEmpty ? "" : ", parameters " + r.parameters.joined(separator: ", "))]: \(r.detail)"
    }

    /// A reason's tags: `reason`, its code, its basis and its rule.
    static func tags(_ r: Reason) -> [String] { ["reason", r.code, "basis:\(r.basis.rawValue)", "rule:\(r.rule)"] }
}

package import Ledger
package import Projections
package import SmartStack

/// `export timeline --format case`: the model's decisions over an interval, each with its
/// reasons and assumptions, and the disagreements with the device's own records, as a
/// CASE/UCO bundle; every event they cite is a provenance record of its artifact.
package enum CaseTimeline {
    /// Writes the bundle through `flush`, as the lines are found; returns how many decisions
    /// and disagreements it holds.
    @discardableResult
    package static func write(
        _ export: TimelineExport, devices: [String], from: Int64, to: Int64, query: ProjectionQuery, question: String,
        tool: String, policy: Policy, ledger: Ledger, flush: @escaping ([UInt8]) throws -> Void
    ) throws -> [TimelineRow.Kind: Int] {
        var counts = [TimelineRow.Kind: Int]()
        var bundle = CaseProvenance(graph: CaseGraphWriter(flush: flush))
        let version = tool.split(separator: " ").last.map(String.init) ?? tool
        let instrument = try bundle.writeTool(version: version, policy: policy)
        let head = try ledger.read { try $0.chainHead() }?.description ?? "empty store"
        let action = CaseGraphWriter.iri("InvestigativeAction", "timeline \(question) \(head)")
        var results = [String]()
        var export = export
        export.include.formIntersection([.decision, .disagreement])
        try export.forEachRow(devices: devices, from: from, to: to, query: query) { row in
            counts[row.kind, default: 0] += 1
            let cites = row.citedEvents + (row.kind == .disagreement ? row.seq.map { [$0] } ?? [] : [])
            try bundle.writeEvents(cites, ledger: ledger)
            let identity = "\(action) \(row.kind.rawValue) \(row.time.microseconds) \(row.message)"
            let iri = CaseGraphWriter.iri("Annotation", identity)
            try bundle.writeAnnotation(
                iri, statement: row.message, tags: [row.kind.rawValue, "origin:\(row.origin.rawValue)"],
                objects: bundle.objects(citing: cites, fallback: action))
            results.append(iri)
            for (n, reason) in row.reasons.enumerated() {
                let reasonIRI = CaseGraphWriter.iri("Annotation", "\(identity) reason \(n)")
                try bundle.writeAnnotation(
                    reasonIRI, statement: CaseWhy.line(reason), tags: CaseWhy.tags(reason),
                    objects: bundle.objects(citing: reason.events, fallback: iri))
                results.append(reasonIRI)
            }
            for (n, assumption) in row.assumptions.enumerated() {
                let assumptionIRI = CaseGraphWriter.iri("Annotation", "\(identity) assumption \(n)")
                try bundle.writeAnnotation(
                    assumptionIRI, statement: "Assumes \(assumption.code): \(assumption.detail)",
                    tags: ["assumption", assumption.code],
                    objects: bundle.objects(citing: assumption.events, fallback: iri))
                results.append(assumptionIRI)
            }
        }
        let chain = CaseGraphWriter.iri("Annotation", "\(action) chain head")
        try bundle.writeAnnotation(
            chain, statement: "The StackLedger store's chain head at export: \(head)", tags: ["chain-head"],
            objects: [action])
        try bundle.writeAction(
            action, name: "StackLedger timeline: \(question)",
            description:
                "The decisions of StackLedger's \(policy.name) model and their disagreements with the device's own records, replayed from the stored events",
            instrument: instrument, results: results + [chain] + bundle.provenanceIRIs)
        try bundle.graph.finish()
        return counts
    }
}

package import Ledger
import RecordFormat
package import SmartStack

/// The parts every StackLedger CASE bundle holds: the tool and its policy, the cited events
/// as provenance records pointing at their artifact, stream and locator, the artifacts as
/// files with their SHA-256, and annotations for conclusions, reasons and assumptions.
package struct CaseProvenance {
    package var graph: CaseGraphWriter
    /// The IRI of each event written, by sequence number.
    package private(set) var eventIRIs: [UInt64: String] = [:]
    /// The IRI of each artifact file written, by its SHA-256.
    package private(set) var fileIRIs: [String: String] = [:]
    /// The provenance records written, in order.
    package private(set) var provenanceIRIs: [String] = []

    package init(graph: CaseGraphWriter) {
        self.graph = graph
    }

    /// The analytic tool, and the tool as configured with the policy: returns the configured
    /// tool's IRI (an action's instrument).
    package mutating func writeTool(version: String, policy: Policy) throws -> String {
        let tool = CaseGraphWriter.iri("AnalyticTool", "StackLedger \(version)")
        try graph.node(tool, "uco-tool:AnalyticTool") { w in
            w.key("uco-core:name")
            w.string("StackLedger")
            w.key("uco-tool:version")
            w.string(version)
            w.key("uco-core:description")
            w.string("Event-sourced storage and replay of the signals that drive Apple's Smart Stacks")
        }
        let entries: [(String, String)] = [
            ("policy", policy.name), ("policyVersion", String(Policy.version)), ("policyDigest", policy.digest),
            ("model", "\(policy.name) is StackLedger's model of the Smart Stack, not Apple's algorithm"),
        ]
        let identity = "\(version) \(policy.digest)"
        let entryIRIs = entries.map { CaseGraphWriter.iri("ConfigurationEntry", identity + " " + $0.0) }
        for (iri, (name, value)) in zip(entryIRIs, entries) {
            try graph.node(iri, "uco-configuration:ConfigurationEntry") { w in
                w.key("uco-configuration:itemName")
                w.string(name)
                w.key("uco-configuration:itemValue")
                w.string(value)
            }
        }
        let configuration = CaseGraphWriter.iri("Configuration", identity)
        try graph.node(configuration, "uco-configuration:Configuration") { w in
            w.key("uco-configuration:configurationEntry")
            w.references(entryIRIs)
        }
        let configured = CaseGraphWriter.iri("ConfiguredTool", identity)
        try graph.node(configured, "uco-tool:ConfiguredTool") { w in
            w.key("uco-core:name")
            w.string("StackLedger with the \(policy.name) policy")
            w.reference("uco-configuration:isConfigurationOf", tool)
            w.reference("uco-configuration:usesConfiguration", configuration)
        }
        return configured
    }

    /// Each event in `seqs` (once) as an event record with its type, time, id and canonical
    /// line; the artifact it came from as a file; and a provenance record tying the event to
    /// the file, the stream and the locator.
    package mutating func writeEvents(_ seqs: [UInt64], ledger: Ledger) throws {
        var w = CanonicalWriter(capacity: 1024)
        for seq in seqs where eventIRIs[seq] == nil {
            guard
                let (event, recordedSeq) = try ledger.read({ r in
                    try r.withRecord(seq) { (try Event(record: $0), $0.seq) }
                })
            else { continue }
            w.bytes.removeAll(keepingCapacity: true)
            event.writeCanonical(&w)
            let line = w.text
            let record = CaseGraphWriter.iri("EventRecord", line)
            let facet = CaseGraphWriter.iri("EventRecordFacet", line)
            try graph.node(facet, "uco-observable:EventRecordFacet") { w in
                w.key("uco-observable:eventType")
                w.string(event.body.typeName)
                w.typed("uco-observable:startTime", "xsd:dateTime", event.envelope.time.rfc3339)
                w.key("uco-observable:eventRecordID")
                w.string(event.envelope.id ?? "seq \(recordedSeq)")
                w.key("uco-observable:eventRecordText")
                w.string(line)
            }
            try graph.node(record, "uco-observable:EventRecord") { w in
                w.key("uco-core:name")
                w.string("StackLedger event \(recordedSeq) (\(event.body.typeName)) of device \(event.envelope.device)")
                w.reference("uco-core:hasFacet", facet)
            }
            eventIRIs[seq] = record
            var objects = [record]
            var description = "Event \(recordedSeq) of the StackLedger store"
            if let source = event.envelope.source {
                if let artifact = source.artifact {
                    objects.append(try writeFile(sha256: artifact, path: source.path))
                }
                description += ", read from \(source.path ?? "an artifact")"
                if let stream = source.stream { description += ", stream \(stream)" }
                if let locator = source.locatorJSON { description += ", locator \(TimelineRow.locatorText(locator))" }
            } else {
                description += ", ingested as NDJSON (no artifact recorded)"
            }
            let provenance = CaseGraphWriter.iri("ProvenanceRecord", line)
            provenanceIRIs.append(provenance)
            try graph.node(provenance, "case-investigation:ProvenanceRecord") { w in
                w.key("case-investigation:exhibitNumber")
                w.string("event \(recordedSeq)")
                w.key("uco-core:description")
                w.string(description)
                w.key("uco-core:object")
                w.references(objects)
            }
        }
    }

    /// An artifact as a file with its path and SHA-256 (once per hash).
    private mutating func writeFile(sha256: String, path: String?) throws -> String {
        if let iri = fileIRIs[sha256] { return iri }
        let file = CaseGraphWriter.iri("File", sha256)
        let fileFacet = CaseGraphWriter.iri("FileFacet", sha256)
        let contentFacet = CaseGraphWriter.iri("ContentDataFacet", sha256)
        let hash = CaseGraphWriter.iri("Hash", sha256)
        try graph.node(hash, "uco-types:Hash") { w in
            w.key("uco-types:hashMethod")
            w.string("SHA256")
            w.typed("uco-types:hashValue", "xsd:hexBinary", sha256.uppercased())
        }
        try graph.node(contentFacet, "uco-observable:ContentDataFacet") { w in
            w.reference("uco-observable:hash", hash)
        }
        try graph.node(fileFacet, "uco-observable:FileFacet") { w in
            if let path {
                w.key("uco-observable:fileName")
                w.string(path.split(separator: "/").last.map(String.init) ?? path)
                w.key("uco-observable:filePath")
                w.string(path)
            }
        }
        try graph.node(file, "uco-observable:File") { w in
            w.key("uco-core:hasFacet")
            w.references([fileFacet, contentFacet])
        }
        fileIRIs[sha256] = file
        return file
    }

    /// An annotation: a statement about `objects` (at least one), with tags.
    package mutating func writeAnnotation(_ iri: String, statement: String, tags: [String], objects: [String]) throws {
        try graph.node(iri, "uco-core:Annotation") { w in
            w.key("uco-core:statement")
            w.string(statement)
            if !tags.isEmpty {
                w.key("uco-core:tag")
                w.beginArray()
                for tag in tags { w.string(tag) }
                w.endArray()
            }
            w.key("uco-core:object")
            w.references(objects)
        }
    }

    /// The IRIs of the events a reason or assumption cites (written already), else `fallback`.
    package func objects(citing seqs: [UInt64], fallback: String) -> [String] {
        let iris = seqs.compactMap { eventIRIs[$0] }
        return iris.isEmpty ? [fallback] : iris
    }

    /// The investigative action: the analysis, its instrument, what it looked at and what
    /// it found.
    package mutating func writeAction(
        _ iri: String, name: String, description: String, instrument: String, results: [String]
    ) throws {
        let inputs = fileIRIs.values.sorted()
        try graph.node(iri, "case-investigation:InvestigativeAction") { w in
            w.key("uco-core:name")
            w.string(name)
            w.key("uco-core:description")
            w.string(description)
            w.reference("uco-action:instrument", instrument)
            if !inputs.isEmpty {
                w.key("uco-action:object")
                w.references(inputs)
            }
            if !results.isEmpty {
                w.key("uco-action:result")
                w.references(results)
            }
        }
    }
}

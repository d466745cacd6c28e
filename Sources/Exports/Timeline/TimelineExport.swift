import Forensics
import Ledger
package import Projections
import RecordFormat
package import SmartStack

/// The lines of an examiner's timeline over an interval: the stored events, the model's
/// decisions, the device's own records (`stack.observed`, `stack.rotated`) compared with the
/// model, and the disagreements between them. Lines are produced as they are found, so
/// memory stays flat in the size of the export.
package struct TimelineExport {
    /// Which kinds of lines to write.
    package var include: Set<TimelineRow.Kind> = Set(TimelineRow.Kind.allCases)
    package let projector: Projector

    package init(projector: Projector) {
        self.projector = projector
    }

    /// Calls `emit` with every line for `devices` in `[from, to]`: first the events in
    /// sequence order, then per device its decisions in time order, its observations and
    /// its disagreements in the records' order.
    package func forEachRow(
        devices: [String], from: Int64, to: Int64, query: ProjectionQuery, emit: (TimelineRow) throws -> Void
    ) throws {
        if include.contains(.event) {
            let wanted = Set(devices)
            try projector.ledger.read { reader in
                try reader.scan { view in
                    let env = view.envelope
                    let t = env.time.microseconds
                    guard t >= from, t <= to, wanted.contains(env.device) else { return true }
                    let event = try Event.stored(view)
                    try emit(Self.row(event: event, seq: view.seq))
                    return true
                }
            }
        }
        for device in devices {
            if include.contains(.decision) {
                try projector.walk(
                    device: device, from: from, to: to, every: max(1, to - from + 1), query: query,
                    sample: { _, _ in }, decision: { try emit(Self.row(decision: $0, model: projector.policy.name)) })
            }
            guard include.contains(.observation) || include.contains(.disagreement) else { continue }
            let observations = try Explainer(projector: projector, device: device).observations(
                stack: nil, from: from, to: to, query: query)
            var disagreements = [TimelineRow]()
            for observation in observations {
                guard
                    let event = try projector.ledger.read({ r in
                        try r.withRecord(observation.event) { try Event(record: $0) }
                    })
                else { continue }
                let row = Self.row(
                    observation: observation, event: event, device: device, model: projector.policy.name)
                if include.contains(.observation) { try emit(row) }
                if observation.disagrees {
                    disagreements.append(Self.disagreement(row, observation, model: projector.policy.name))
                }
            }
            if include.contains(.disagreement) { for row in disagreements { try emit(row) } }
        }
    }

    /// The line of a stored event.
    package static func row(event: Event, seq: UInt64) -> TimelineRow {
        let type = event.body.typeName
        let meaning: String
        switch event.body {
        case .stackObserved: meaning = "Observed On Screen"
        case .stackRotated: meaning = "Device Rotation"
        case .layoutObserved: meaning = "Layout Recorded"
        case .suggestionObserved: meaning = "Suggestion Appeared"
        case .relevanceObserved: meaning = "Relevance Recorded"
        default: meaning = "Event Time"
        }
        return TimelineRow(
            kind: .event, message: EventSentence.text(event), time: event.envelope.time, timeMeaning: meaning,
            origin: origin(of: event), device: event.envelope.device, names: EventNames(event), eventType: type,
            seq: seq, source: event.envelope.source)
    }

    /// Whom a stored event speaks for: an artifact's record is the device's; what an app
    /// sends (timelines, reloads, donations, relevance) is the app's; the rest the device
    /// observed.
    static func origin(of event: Event) -> TimelineRow.Origin {
        if event.envelope.source?.artifact != nil { return .device }
        switch event.body {
        case .widgetTimeline, .widgetDeclared, .reloadRequested, .intentDonated, .donationsDeleted, .relevantShortcuts,
            .relevantIntents, .widgetRelevance:
            return .app
        default: return .device
        }
    }

    /// The line of a decision of the model; its message starts with the policy's name, `model`.
    package static func row(decision d: Decision, model: String) -> TimelineRow {
        let widget = "\(d.widget.kind) (\(d.widget.instance))"
        var message = "\(model) model: "
        switch d.action {
        case .rotate: message += "Smart Rotate would put \(widget) on top of stack \(d.stack)"
        case .scroll: message += "the person's scroll puts \(widget) on top of stack \(d.stack)"
        case .suggest: message += "Widget Suggestions would show \(widget) in stack \(d.stack)"
        case .unsuggest: message += "the suggested \(widget) would leave stack \(d.stack)"
        case .keep: message += "\(widget) would stay on top of stack \(d.stack)"
        }
        if let first = d.reasons.first { message += ", because \(first.code): \(first.detail)" }
        if !d.assumptions.isEmpty { message += " (assumes \(d.assumptions.map(\.code).joined(separator: ", ")))" }
        let names = EventNames(stack: d.stack, instance: d.widget.instance, app: d.widget.app, kind: d.widget.kind)
        return TimelineRow(
            kind: .decision, message: message, time: d.time, timeMeaning: "Modelled Decision", origin: .model,
            device: d.device, names: names, action: d.action.rawValue, reasons: d.reasons, assumptions: d.assumptions)
    }

    /// The line of a record of the device's own, with how it compares with the model.
    static func row(observation o: Explainer.Observation, event: Event, device: String, model: String)
        -> TimelineRow
    {
        let judgement = o.judgement
        var names = EventNames(event)
        names.stack = o.stack ?? names.stack
        let isRotation: Bool
        if case .stackRotated = event.body { isRotation = true } else { isRotation = false }
        let verdict: String
        if o.unjudged != nil {
            verdict = "; not judged against the model"
        } else if o.scope == .stack {
            verdict = "; the \(model) model's layout is \(o.agrees ? "consistent with it" : "different")"
        } else {
            verdict = "; the \(model) model \(o.agrees ? "agrees" : "disagrees")"
        }
        return TimelineRow(
            kind: .observation, message: "Device record: " + o.detail + verdict, time: o.time,
            timeMeaning: isRotation ? "Device Rotation" : "Observed On Screen", origin: .device, device: device,
            names: names, eventType: event.body.typeName, seq: o.event, judgement: judgement,
            source: event.envelope.source)
    }

    /// The line of a disagreement between a record of the device's and the model.
    static func disagreement(_ observed: TimelineRow, _ o: Explainer.Observation, model: String) -> TimelineRow {
        var row = observed
        row.kind = .disagreement
        row.origin = .model
        row.timeMeaning = "Disagreement"
        row.message = "\(model) model disagrees with the device's record (event \(o.event)): \(o.detail)"
        return row
    }
}

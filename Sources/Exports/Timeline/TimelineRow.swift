package import RecordFormat
package import SmartStack

/// One line of an examiner's timeline: a stored event, a decision of the model, a record of
/// the device's own compared with the model, or a disagreement between them.
package struct TimelineRow: Sendable {
    /// What the line is.
    package enum Kind: String, Sendable, CaseIterable {
        case event, decision, observation, disagreement
    }

    /// Who the line speaks for: what an artifact of the device recorded, what an app sent,
    /// or what StackLedger's model decided.
    package enum Origin: String, Sendable {
        case device, app, model
    }

    package var kind: Kind
    /// One human sentence. A line of the model starts with the policy's name.
    package var message: String
    /// The time, with the offset the event was written with (a decision: the device's local
    /// offset then).
    package var time: Timestamp
    /// What the time means (Timesketch's `timestamp_desc`).
    package var timeMeaning: String
    package var origin: Origin
    package var device: String
    package var names: EventNames
    package var eventType: String? = nil
    /// The stored event's sequence number (an observation or disagreement: the record's).
    package var seq: UInt64? = nil
    package var action: String? = nil
    package var reasons: [Reason] = []
    package var assumptions: [Assumption] = []
    /// For an observation: `agrees`, `disagrees`, or `not judged: CAUSE`.
    package var judgement: String? = nil
    package var source: Provenance? = nil

    /// The sequence numbers the reasons and assumptions cite, ascending.
    package var citedEvents: [UInt64] {
        Array(Set(reasons.flatMap(\.events) + assumptions.flatMap(\.events))).sorted()
    }
}

/// What every line of one export shares: the policy and the store's chain head.
package struct TimelineContext: Sendable {
    /// `smartstack-1 v1 DIGEST`.
    package var policy: String
    /// The chain head at export, as `verify` prints it; nil for an empty store.
    package var chainHead: String?

    package init(policy: Policy, chainHead: String?) {
        self.policy = "\(policy.name) v\(Policy.version) \(policy.digest)"
        self.chainHead = chainHead
    }
}

extension TimelineRow {
    /// The columns of a timeline, in order: Timesketch's three required ones first, then
    /// the attributes (docs/queries.md, "Timelines").
    package static let columns = [
        "message", "datetime", "timestamp", "timestamp_desc", "origin", "row_type", "device", "stack",
        "widget_instance", "widget_app", "widget_extension", "widget_kind", "event_type", "seq", "decision_action",
        "reasons", "reason_codes", "reason_basis", "reason_rules", "reason_parameters", "cited_events", "assumptions",
        "judgement", "policy", "chain_head", "source_artifact", "source_path", "source_stream", "source_locator",
    ]

    /// A cell: text, a whole number, or nothing.
    package enum Cell: Equatable {
        case text(String)
        case integer(Int64)
        case none
    }

    /// The row's cells, in the order of `columns`.
    package func cells(_ context: TimelineContext) -> [Cell] {
        func text(_ s: String?) -> Cell { s.map { $0.isEmpty ? .none : .text($0) } ?? .none }
        func list(_ items: [String]) -> Cell { items.isEmpty ? .none : .text(items.joined(separator: "; ")) }
        let reasonLines = reasons.map { r in
            "\(r.code) [\(r.basis.rawValue) \(r.rule)]: \(r.detail)"
                + (r.events.isEmpty ? "" : " (events \(r.events.map(String.init).joined(separator: ", ")))")
        }
        return [
            .text(message), .text(time.rfc3339), .integer(time.microseconds), .text(timeMeaning),
            .text(origin.rawValue),
            .text(kind.rawValue), .text(device), text(names.stack), text(names.instance), text(names.app),
            text(names.extensionBundle), text(names.kind), text(eventType), seq.map { .integer(Int64($0)) } ?? .none,
            text(action), list(reasonLines), list(reasons.map(\.code)), list(reasons.map(\.basis.rawValue)),
            list(reasons.map(\.rule)), list(reasons.flatMap(\.parameters)),
            list(citedEvents.map(String.init)), list(assumptions.map { "\($0.code): \($0.detail)" }), text(judgement),
            .text(context.policy), text(context.chainHead), text(source?.artifact), text(source?.path),
            text(source?.stream), text(source?.locatorJSON.map(Self.locatorText)),
        ]
    }

    /// A locator as text: a JSON string without its quotes, a number as written.
    static func locatorText(_ json: String) -> String {
        guard json.count >= 2, json.first == "\"", json.last == "\"", !json.contains("\\") else { return json }
        return String(json.dropFirst().dropLast())
    }
}

import Forensics
import Ledger
package import Projections
import RecordFormat
package import SQLiteKit
import SmartStack

/// `export sqlite`: the events, the model's decisions with their reasons and cited events,
/// sampled states, the device's own records compared with the model, the disagreements
/// and the assumptions, in one SQLite database (docs/queries.md, "Tables").
package struct SQLiteExport {
    /// The schema, as docs/queries.md documents it.
    package static let schema = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE events (seq INTEGER PRIMARY KEY, time TEXT NOT NULL, time_us INTEGER NOT NULL, device TEXT NOT NULL, type TEXT NOT NULL, app TEXT, extension TEXT, kind TEXT, instance TEXT, stack TEXT, id TEXT, line TEXT NOT NULL, source_artifact TEXT, source_path TEXT, source_stream TEXT, source_locator TEXT);
        CREATE TABLE decisions (id INTEGER PRIMARY KEY, time TEXT NOT NULL, time_us INTEGER NOT NULL, device TEXT NOT NULL, stack TEXT NOT NULL, action TEXT NOT NULL, instance TEXT NOT NULL, app TEXT NOT NULL, kind TEXT NOT NULL, from_instance TEXT, message TEXT NOT NULL);
        CREATE TABLE reasons (id INTEGER PRIMARY KEY, decision_id INTEGER NOT NULL REFERENCES decisions(id), position INTEGER NOT NULL, code TEXT NOT NULL, basis TEXT NOT NULL, rule TEXT NOT NULL, parameters TEXT NOT NULL, detail TEXT NOT NULL);
        CREATE TABLE reason_events (reason_id INTEGER NOT NULL REFERENCES reasons(id), seq INTEGER NOT NULL, event_id TEXT);
        CREATE TABLE observations (seq INTEGER NOT NULL, time TEXT NOT NULL, time_us INTEGER NOT NULL, device TEXT NOT NULL, stack TEXT, type TEXT NOT NULL, judgement TEXT NOT NULL, matched_by TEXT, detail TEXT NOT NULL);
        CREATE TABLE disagreements (seq INTEGER NOT NULL, time TEXT NOT NULL, time_us INTEGER NOT NULL, device TEXT NOT NULL, stack TEXT, detail TEXT NOT NULL);
        CREATE TABLE states (time TEXT NOT NULL, time_us INTEGER NOT NULL, device TEXT NOT NULL, stack TEXT NOT NULL, instance TEXT NOT NULL, app TEXT NOT NULL, kind TEXT NOT NULL, position INTEGER NOT NULL, on_top INTEGER NOT NULL, suggested INTEGER NOT NULL, score REAL, normalized REAL);
        CREATE TABLE assumptions (id INTEGER PRIMARY KEY, decision_id INTEGER REFERENCES decisions(id), state_time_us INTEGER, device TEXT NOT NULL, stack TEXT NOT NULL, code TEXT NOT NULL, instance TEXT, events TEXT NOT NULL, detail TEXT NOT NULL);
        CREATE TABLE calibration (parameter TEXT NOT NULL, value TEXT NOT NULL, device TEXT NOT NULL, from_digest TEXT NOT NULL, converged INTEGER NOT NULL, held_out_agrees INTEGER, held_out_judged INTEGER);
        """

    /// The indices, made after the rows are in.
    package static let indices = """
        CREATE INDEX events_time ON events(time_us);
        CREATE INDEX events_device_time ON events(device, time_us);
        CREATE INDEX decisions_device_time ON decisions(device, time_us);
        CREATE INDEX reasons_decision ON reasons(decision_id);
        CREATE INDEX reason_events_seq ON reason_events(seq);
        CREATE INDEX observations_device_time ON observations(device, time_us);
        CREATE INDEX disagreements_device_time ON disagreements(device, time_us);
        CREATE INDEX states_device_time ON states(device, time_us);
        CREATE INDEX assumptions_decision ON assumptions(decision_id);
        """

    /// How many rows went into each table.
    package struct Counts: Sendable {
        package var rows: [String: Int] = [:]
    }

    package let projector: Projector
    /// The interval between state samples, in microseconds.
    package var every: Int64
    /// Whether the events table is filled (else it is left empty).
    package var includeEvents = true

    package init(projector: Projector, every: Int64) {
        self.projector = projector
        self.every = every
    }

    /// Creates the database an export writes, at a temporary path renamed into place once
    /// complete: no journal is kept, and nothing waits for the disk until then.
    package static func database(at path: String) throws(SQLiteError) -> SQLiteConnection {
        let db = try SQLiteConnection.open(path, mode: .create)
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192")
        return db
    }

    /// Writes every table for `devices` in `[from, to]` and `meta`, in one transaction.
    package func write(
        into db: SQLiteConnection, devices: [String], from: Int64, to: Int64, query: ProjectionQuery,
        meta: [(String, String)]
    ) throws -> Counts {
        try db.execute("BEGIN")
        try db.execute(Self.schema)
        var sink = SQLiteTableSink(db)
        let counts = try write(into: &sink, devices: devices, from: from, to: to, query: query, meta: meta)
        try db.execute(Self.indices)
        try db.execute("COMMIT")
        return counts
    }

    /// Writes every table's rows for `devices` in `[from, to]`, and `meta`, into `sink`.
    package func write(
        into sink: inout some TableSink, devices: [String], from: Int64, to: Int64, query: ProjectionQuery,
        meta: [(String, String)]
    ) throws -> Counts {
        var counts = Counts()
        for (key, value) in meta {
            try sink.insert(.meta, [.text(key), .text(value)])
        }
        try writeCalibration(&sink, counts: &counts)
        if includeEvents { try writeEvents(&sink, devices: Set(devices), from: from, to: to, counts: &counts) }
        for device in devices {
            try writeModel(&sink, device: device, from: from, to: to, query: query, counts: &counts)
            try writeObservations(&sink, device: device, from: from, to: to, query: query, counts: &counts)
        }
        return counts
    }

    /// One row per parameter fitted, when the policy in force was fitted to a device's
    /// records (`calibrate`); none otherwise.
    private func writeCalibration(_ sink: inout some TableSink, counts: inout Counts) throws {
        let policy = projector.policy
        guard let fit = policy.calibration else { return }
        for name in fit.fitted {
            guard let range = PolicyParameters.calibrationRanges.first(where: { $0.name == name }) else { continue }
            try sink.insert(
                .calibration,
                [
                    .text(name), .text(range.value(in: policy.parameters).description), .text(fit.device),
                    .text(fit.fromDigest), .integer(fit.converged ? 1 : 0),
                    fit.heldOut.map { .integer(Int64($0.agrees)) } ?? .null,
                    fit.heldOut.map { .integer(Int64($0.judged)) } ?? .null,
                ])
            counts.rows["calibration", default: 0] += 1
        }
    }

    private func writeEvents(
        _ sink: inout some TableSink, devices: Set<String>, from: Int64, to: Int64, counts: inout Counts
    ) throws {
        var w = CanonicalWriter(capacity: 1 << 12)
        try projector.ledger.read { reader in
            try reader.scan { view in
                let env = view.envelope
                guard env.time.microseconds >= from, env.time.microseconds <= to, devices.contains(env.device) else {
                    return true
                }
                let event = try Event.stored(view)
                let names = EventNames(event)
                w.bytes.removeAll(keepingCapacity: true)
                event.writeCanonical(&w)
                let source = env.source
                try sink.insert(
                    .events,
                    [
                        .integer(Int64(view.seq)), .text(env.time.rfc3339), .integer(env.time.microseconds),
                        .text(env.device), .text(event.body.typeName), .text(names.app), .text(names.extensionBundle),
                        .text(names.kind), .text(names.instance), .text(names.stack), .text(env.id), .text(w.text),
                        .text(source?.artifact), .text(source?.path), .text(source?.stream),
                        .text(source?.locatorJSON.map(TimelineRow.locatorText)),
                    ])
                counts.rows["events", default: 0] += 1
                return true
            }
        }
    }

    /// The decisions and the sampled states of one device, from one walk.
    private func writeModel(
        _ sink: inout some TableSink, device: String, from: Int64, to: Int64, query: ProjectionQuery,
        counts: inout Counts
    ) throws {
        try projector.walk(
            device: device, from: from, to: to, every: every, query: query,
            sample: { t, engine in
                let at = Timestamp(microseconds: t, offsetMinutes: engine.localOffset(at: t))
                let snapshot = engine.snapshot(at: at)
                try writeState(&sink, snapshot, at: at, device: device, counts: &counts)
            },
            decision: { decision in try writeDecision(&sink, decision, counts: &counts) })
    }

    private func writeState(
        _ sink: inout some TableSink, _ snapshot: DeviceSnapshot, at: Timestamp, device: String, counts: inout Counts
    ) throws {
        for stack in snapshot.stacks {
            for widget in stack.widgets {
                try sink.insert(
                    .states,
                    [
                        .text(at.rfc3339), .integer(at.microseconds), .text(device), .text(stack.stack),
                        .text(widget.widget.instance), .text(widget.widget.app), .text(widget.widget.kind),
                        .integer(Int64(widget.position)),
                        .integer(stack.top?.widget.instance == widget.widget.instance ? 1 : 0),
                        .integer(widget.suggested ? 1 : 0), widget.relevance.map { .real($0.score) } ?? .null,
                        widget.relevance.map { .real($0.normalized) } ?? .null,
                    ])
                counts.rows["states", default: 0] += 1
            }
            for assumption in stack.assumptions {
                try writeAssumption(&sink, assumption, decision: nil, stateTime: at.microseconds, device: device)
                counts.rows["assumptions", default: 0] += 1
            }
        }
    }

    private func writeDecision(_ sink: inout some TableSink, _ d: Decision, counts: inout Counts) throws {
        let id = try sink.insert(
            .decisions,
            [
                .text(d.time.rfc3339), .integer(d.time.microseconds), .text(d.device), .text(d.stack),
                .text(d.action.rawValue), .text(d.widget.instance), .text(d.widget.app), .text(d.widget.kind),
                .text(d.from?.instance), .text(TimelineExport.row(decision: d, model: projector.policy.name).message),
            ])
        counts.rows["decisions", default: 0] += 1
        for (position, reason) in d.reasons.enumerated() {
            let reasonID = try sink.insert(
                .reasons,
                [
                    .integer(id), .integer(Int64(position)), .text(reason.code), .text(reason.basis.rawValue),
                    .text(reason.rule), .text(Self.jsonArray(reason.parameters)), .text(reason.detail),
                ])
            counts.rows["reasons", default: 0] += 1
            for seq in reason.events {
                let eventID = try projector.ledger.read { r in try r.withRecord(seq) { $0.envelope.id } } ?? nil
                try sink.insert(
                    .reasonEvents, [.integer(reasonID), .integer(Int64(seq)), .text(eventID)])
                counts.rows["reason_events", default: 0] += 1
            }
        }
        for assumption in d.assumptions {
            try writeAssumption(&sink, assumption, decision: id, stateTime: nil, device: d.device)
            counts.rows["assumptions", default: 0] += 1
        }
    }

    private func writeAssumption(
        _ sink: inout some TableSink, _ a: Assumption, decision: Int64?, stateTime: Int64?, device: String
    ) throws {
        try sink.insert(
            .assumptions,
            [
                decision.map { .integer($0) } ?? .null, stateTime.map { .integer($0) } ?? .null, .text(device),
                .text(a.stack), .text(a.code), .text(a.instance), .text(Self.jsonArray(a.events)),
                .text(a.detail),
            ])
    }

    private func writeObservations(
        _ sink: inout some TableSink, device: String, from: Int64, to: Int64, query: ProjectionQuery,
        counts: inout Counts
    ) throws {
        let observations = try Explainer(projector: projector, device: device).observations(
            stack: nil, from: from, to: to, query: query)
        for o in observations {
            let type = try projector.ledger.read { r in try r.withRecord(o.event) { $0.envelope.type } } ?? "?"
            let judgement = o.judgement
            let common: [SQLValue] = [
                .integer(Int64(o.event)), .text(o.time.rfc3339), .integer(o.time.microseconds), .text(device),
                .text(o.stack),
            ]
            try sink.insert(
                .observations,
                common + [.text(type), .text(judgement), .text(o.matchedBy?.rawValue), .text(o.detail)])
            counts.rows["observations", default: 0] += 1
            if o.disagrees {
                try sink.insert(.disagreements, common + [.text(o.detail)])
                counts.rows["disagreements", default: 0] += 1
            }
        }
    }

    /// A JSON array of strings.
    package static func jsonArray(_ items: [String]) -> String {
        var w = CanonicalWriter(capacity: 64)
        w.beginArray()
        for item in items { w.string(item) }
        w.endArray()
        return w.text
    }

    /// A JSON array of sequence numbers.
    package static func jsonArray(_ items: [UInt64]) -> String {
        var w = CanonicalWriter(capacity: 64)
        w.beginArray()
        for item in items { w.integer(Int(item)) }
        w.endArray()
        return w.text
    }
}

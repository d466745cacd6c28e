import Forensics
import Ledger
import Projections
import RecordFormat
import SmartStack

/// The API's answers, from one store and one engine, one request at a time (each belongs
/// to one of the `AnsweringThreads`, or is lent by `QuickAnswers` to one question at a
/// time, which is what makes handing it between threads safe): each is the CLI's JSON for
/// the same question, written by the same writers.
final class StoreAPI: @unchecked Sendable {
    let ledger: Ledger
    let projector: Projector
    let tool: String
    /// The quick check the answers rest on, kept per commit.
    let gate: QuickCheckGate
    /// Each device's overview, shared with every other engine of the server (`overview(_:)`).
    let overviews: OverviewCache

    init(ledger: Ledger, policy: Policy, tool: String, overviews: OverviewCache = OverviewCache()) {
        self.ledger = ledger
        self.projector = Projector(ledger: ledger, policy: policy)
        self.tool = tool
        self.overviews = overviews
        self.gate = QuickCheckGate(ledger: ledger)
    }

    /// A response body and its content type.
    struct Answer: Sendable {
        var contentType: String
        var body: [UInt8]
        var headers: [(String, String)] = []

        static func json(_ w: CanonicalWriter) -> Answer {
            var bytes = w.bytes
            bytes.append(0x0A)
            return Answer(contentType: "application/json", body: bytes)
        }
    }

    /// Brings the checkpoints up to date and runs the quick check, as a first question
    /// would, so that the first one asked of this engine does no more than any other.
    /// A store that cannot be read is left for the questions to report.
    func prepare() {
        try? projector.prepareCheckpoints()
        _ = try? gate.finding()
    }

    /// Whether `q` (`state` or `why` parameters) asks about the whole log at an instant
    /// that a fold of at most `foldLimit` records from a checkpoint reaches, and names its
    /// device; false for any other question, and for one this engine cannot judge
    /// without asking the store more.
    func isQuick(_ q: QueryParameters, foldLimit: UInt64) -> Bool {
        guard q["knownAt"] == nil, q["without"] == nil, let device = q["device"],
            let t = try? q.requiredTime("at")
        else { return false }
        return (try? projector.foldsWithin(foldLimit, device: device, at: t.microseconds)) ?? false
    }

    /// Runs `body` against a store that passes its quick check; a store that fails it, or
    /// cannot be read, answers 503.
    func checked<T>(_ body: () throws -> T) throws -> T {
        do {
            _ = try gate.admit(force: false)
            return try body()
        } catch let refusal as QuickCheckGate.Refusal {
            throw APIError.storeUnavailable(refusal.message)
        } catch let error as APIError {
            throw error
        } catch let error as LedgerError {
            throw APIError.storeUnavailable("the store cannot be read: \(error.message)")
        }
    }

    /// The device asked for, or the store's only device.
    func device(_ q: QueryParameters) throws -> String {
        switch DeviceChoice.of(q["device"], among: try projector.devices()) {
        case .chosen(let devices):
            return devices[0]
        case .unknown(let d, let holds):
            throw APIError.badParameter(
                "device", "the store has no events of \(d); it holds: \(DeviceList.some(holds))")
        case .empty:
            throw APIError.badParameter("device", "the store holds no events")
        case .several(let holds):
            throw APIError.badParameter(
                "device", "the store holds several devices; give one of: \(DeviceList.some(holds))")
        }
    }

    /// `knownAt` and `without`, as the CLI's `--known-at` and `--without`.
    private func query(_ q: QueryParameters) throws -> ProjectionQuery {
        var query = ProjectionQuery(knownAt: try q.time("knownAt"), asRecordedAt: nil)
        query.without = try q.sequenceNumbers("without")
        if let last = query.withoutPast(lastSeq: try ledger.read { try $0.lastSeq() }) {
            throw APIError.badParameter("without", "the store holds no event with sequence number \(last)")
        }
        return query
    }

    /// `/api/devices`: each device with its event count and first and last event times.
    func devices() throws -> Answer {
        try checked {
            var w = CanonicalWriter()
            w.beginObject()
            ProjectionJSON.writeHeader(&w, policy: projector.policy, tool: tool)
            w.key("devices")
            w.beginArray()
            try ledger.read { r in
                for device in try r.devices() {
                    let span = try r.eventSpan(device: device)
                    w.beginObject()
                    w.key("device")
                    w.string(device)
                    w.key("events")
                    w.integer(span?.count ?? 0)
                    w.key("first")
                    if let t = span?.first { w.time(Timestamp(microseconds: t)) } else { w.null() }
                    w.key("last")
                    if let t = span?.last { w.time(Timestamp(microseconds: t)) } else { w.null() }
                    w.endObject()
                }
            }
            w.endArray()
            w.endObject()
            return .json(w)
        }
    }

    /// `/api/state`: `state --json`.
    func state(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let t = try q.requiredTime("at")
            let engine = try projector.engine(device: device, at: t.microseconds, query: try query(q))
            let local = Timestamp(microseconds: t.microseconds, offsetMinutes: engine.localOffset(at: t.microseconds))
            var snapshot = engine.snapshot(at: local)
            if let stack = q["stack"] {
                snapshot.stacks = snapshot.stacks.filter { $0.stack == stack }
                guard !snapshot.stacks.isEmpty else {
                    throw APIError.badParameter("stack", "no such stack on \(device) at \(t.rfc3339)")
                }
            }
            var w = CanonicalWriter()
            try StateJSON.write(
                &w, snapshot: snapshot, at: local, device: device, verified: true, damaged: [], ledger: ledger,
                policy: projector.policy, tool: tool)
            return .json(w)
        }
    }

    /// `/api/why`: `why --json`.
    func why(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let t = try q.requiredTime("at")
            let stack = try q.required("stack")
            guard
                let explanation = try Explainer(projector: projector, device: device).explain(
                    stack: stack, at: t, widget: q["widget"], query: try query(q))
            else {
                throw APIError.badParameter("stack", "no such stack on \(device) at \(t.rfc3339)")
            }
            var w = CanonicalWriter()
            try explanation.writeJSON(&w, verified: true, policy: projector.policy, tool: tool, ledger: ledger)
            return .json(w)
        }
    }

    /// `/api/replay`: `replay --json`, NDJSON, in the CLI's order; with `disagreements=true`,
    /// `replay --disagreements --json`; with `records=true`, every device record of the
    /// interval in the same shape, each with its judgement.
    func replay(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let (from, to) = (try q.requiredTime("from"), try q.requiredTime("to"))
            guard from.microseconds <= to.microseconds else { throw APIError.badParameter("from", "is after to") }
            let records = q["records"]
            guard records == nil || records == "true" || records == "false" else {
                throw APIError.badParameter("records", "use true or false")
            }
            switch (q["disagreements"], records) {
            case (nil, _) where records != "true", ("false", _) where records != "true": break
            case ("true", _), (_, "true"):
                let all = records == "true"
                let found = try Explainer(projector: projector, device: device).observations(
                    stack: q["stack"], from: from.microseconds, to: to.microseconds, query: try query(q))
                var out = [UInt8]()
                for o in found where all || o.disagrees {
                    var w = CanonicalWriter()
                    ReplayText.writeJSON(&w, o, device: device)
                    out += w.bytes
                    out.append(0x0A)
                }
                return Answer(contentType: "application/x-ndjson", body: out)
            default: throw APIError.badParameter("disagreements", "use true or false")
            }
            var decisions = try projector.decisions(
                device: device, from: from.microseconds, to: to.microseconds, query: try query(q))
            if let stack = q["stack"] { decisions = decisions.filter { $0.stack == stack } }
            decisions = decisions.enumerated().sorted { x, y in
                let (l, r) = (x.element, y.element)
                if l.time.microseconds != r.time.microseconds { return l.time.microseconds < r.time.microseconds }
                if l.stack != r.stack { return l.stack < r.stack }
                return x.offset < y.offset
            }.map(\.element)
            var out = [UInt8]()
            for d in decisions {
                var w = CanonicalWriter()
                ProjectionJSON.write(&w, d)
                out += w.bytes
                out.append(0x0A)
            }
            return Answer(contentType: "application/x-ndjson", body: out)
        }
    }

    /// The most events one page of `/api/events` holds.
    static let pageLimit = 10_000

    /// `/api/events`: `log --json` lines of one device after a sequence number, a page at a
    /// time; `X-Next-After` names the last one when more follow.
    func events(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let after = try q.integer("after", in: 0...Int.max, default: 0)
            let limit = try q.integer("limit", in: 1...Self.pageLimit, default: 1_000)
            var out = [UInt8]()
            var count = 0
            var last: UInt64?
            var more = false
            try ledger.read { r in
                guard UInt64(after) < UInt64.max else { return }
                try r.scan(UInt64(after + 1)...UInt64.max) { view in
                    guard view.envelope.device == device else { return true }
                    if count == limit {
                        more = true
                        return false
                    }
                    var w = CanonicalWriter()
                    try view.writeStoredJSON(&w)
                    out += w.bytes
                    out.append(0x0A)
                    count += 1
                    last = view.seq
                    return true
                }
            }
            var answer = Answer(contentType: "application/x-ndjson", body: out)
            if more, let last { answer.headers.append(("X-Next-After", String(last))) }
            return answer
        }
    }

    /// `/api/report`: the page's data for an interval (the static report's, as `report`
    /// collects it).
    func report(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let (from, to) = (try q.requiredTime("from"), try q.requiredTime("to"))
            guard from.microseconds < to.microseconds else { throw APIError.badParameter("from", "is not before to") }
            let json = try ReportData.collect(
                projector: projector, device: device, from: from, to: to, query: try query(q), verified: true,
                tool: tool)
            return Answer(contentType: "application/json", body: Array(json.utf8) + [0x0A])
        }
    }
}

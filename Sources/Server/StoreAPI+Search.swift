import Ledger
import RecordFormat
import SmartStack

extension StoreAPI {
    /// The most events one search lists.
    static let searchLimit = 500

    /// `/api/search?q=TEXT[&device=D]`: the device's events that TEXT names, in time order,
    /// at most `searchLimit`: the event of that sequence number when TEXT is a number, else
    /// each whose type, app, or a widget kind or instance it names is TEXT (exactly). NDJSON:
    /// `{"seq", "time", "type", "app"}`; the header `X-More: true` when more matched.
    func search(_ q: QueryParameters, indexedLimit: Int = indexedSearchLimit) throws -> Answer {
        try checked {
            let device = try device(q)
            let text = try q.required("q")
            var out = [UInt8]()
            var found = 0
            var more = false
            func write(_ view: RecordView) {
                var w = CanonicalWriter()
                w.beginObject()
                w.key("seq")
                w.integer(Int(view.seq))
                w.key("time")
                w.time(view.envelope.time)
                w.key("type")
                w.string(view.envelope.type)
                w.key("app")
                if let app = view.envelope.app { w.string(app) } else { w.null() }
                w.endObject()
                out += w.bytes
                out.append(0x0A)
                found += 1
            }
            try ledger.read { r in
                if let seq = UInt64(text) {
                    try r.withRecord(seq) { view in if view.envelope.device == device { write(view) } }
                    return
                }
                if EventType(rawValue: text) == nil,
                    let indexed = try Self.indexedMatches(of: text, in: r, limit: indexedLimit)
                {
                    // Not a type: what names it is in the key index; read those events alone.
                    var matches = [(time: Int64, seq: UInt64)]()
                    for seq in indexed {
                        try r.withRecord(seq) { view in
                            if view.envelope.device == device && Self.names(view, text) {
                                matches.append((view.envelope.time.microseconds, seq))
                            }
                        }
                    }
                    matches.sort { ($0.time, $0.seq) < ($1.time, $1.seq) }
                    more = matches.count > Self.searchLimit
                    for match in matches.prefix(Self.searchLimit) { try r.withRecord(match.seq) { write($0) } }
                    return
                }
                try r.forEachRecord(device: device, after: nil, throughMicros: .max, identities: false) { view in
                    guard Self.names(view, text) else { return true }
                    if found == Self.searchLimit {
                        more = true
                        return false
                    }
                    write(view)
                    return true
                }
            }
            var answer = Answer(contentType: "application/x-ndjson", body: out)
            if more { answer.headers.append(("X-More", "true")) }
            return answer
        }
    }

    /// Whether the event's type or app is `text`, or a widget kind or instance it names.
    static func names(_ view: RecordView, _ text: String) -> Bool {
        view.envelope.type == text || view.envelope.app == text
            || view.indexKeys.contains {
                $0.value == text
                    && ($0.namespace == Event.IndexNamespace.kind || $0.namespace == Event.IndexNamespace.instance)
            }
    }

    /// The most events of the key index a search reads one by one; past it, the device's
    /// events are walked in time order, where the first `searchLimit` matches end the walk.
    static let indexedSearchLimit = 65_536

    /// The events of every device whose app, or a widget kind or instance they name, is
    /// `text`, from the key index, ascending; nil when more than `limit`.
    static func indexedMatches(of text: String, in r: LedgerReader, limit: Int) throws -> [UInt64]? {
        var seqs = Set<UInt64>()
        for namespace in [Event.IndexNamespace.app, Event.IndexNamespace.kind, Event.IndexNamespace.instance] {
            seqs.formUnion(try r.seqs(indexKey: IndexKey(namespace: namespace, value: text)))
            if seqs.count > limit { return nil }
        }
        return seqs.sorted()
    }
}

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
    func search(_ q: QueryParameters) throws -> Answer {
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
                try r.forEachRecord(device: device, after: nil, throughMicros: .max, identities: false) { view in
                    let named =
                        view.envelope.type == text || view.envelope.app == text
                        || view.indexKeys.contains {
                            $0.value == text
                                && ($0.namespace == Event.IndexNamespace.kind
                                    || $0.namespace == Event.IndexNamespace.instance)
                        }
                    guard named else { return true }
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
}

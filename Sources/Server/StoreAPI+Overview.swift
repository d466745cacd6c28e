import Forensics
import Ledger
import SmartStack

extension StoreAPI {
    /// `/api/overview`: the device's whole log at a glance (`DeviceOverview`), made once for
    /// each state of the log and shared by every engine (`OverviewCache`).
    func overview(_ q: QueryParameters) throws -> Answer {
        try checked { try overview(device: try device(q)) }
    }

    /// The overview of `device`, from the cache when the log has not grown since it was made.
    func overview(device: String) throws -> Answer {
        let lastSeq = try ledger.read { try $0.lastSeq() }
        return try overviews.answer(device: device, lastSeq: lastSeq) {
            var w = CanonicalWriter()
            try overviews.overview(device: device, ledger: ledger).writeJSON(&w)
            return Answer.json(w)
        }
    }
}

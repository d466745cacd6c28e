import Forensics
import Ledger
import SmartStack

extension StoreAPI {
    /// `/api/overview`: the device's whole log at a glance (`DeviceOverview`), made once per
    /// commit and device and kept for the next question of the same commit.
    func overview(_ q: QueryParameters) throws -> Answer {
        try checked {
            let device = try device(q)
            let commit = try ledger.commitIdentity()
            if let kept = overviews[device], kept.commit == commit { return kept.answer }
            var w = CanonicalWriter()
            try DeviceOverview.collect(ledger: ledger, device: device).writeJSON(&w)
            let answer = Answer.json(w)
            overviews[device] = (commit, answer)
            return answer
        }
    }
}

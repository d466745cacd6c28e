package import Ledger
package import RecordFormat
package import SmartStack

extension Event {
    /// The event a stored record holds; a record that cannot be decoded is damage, and
    /// the error says to run `stackledger verify`.
    package static func stored(_ view: RecordView) throws(LedgerError) -> Event {
        do {
            return try Event(record: view)
        } catch {
            throw LedgerError(.damaged, "record \(view.seq) cannot be decoded: \(error); run `stackledger verify`")
        }
    }
}

extension RecordView {
    /// The stored event in its canonical JSON with its `seq` and `recordedAt` (the shape
    /// `log --json`, `/api/events` and a `why`'s cited events share).
    package func writeStoredJSON(_ w: inout CanonicalWriter) throws {
        try Event(record: self).writeCanonical(&w) { w in
            w.key("seq")
            w.integer(Int(seq))
            w.key("recordedAt")
            w.time(recordedAt)
        }
    }
}

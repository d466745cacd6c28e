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

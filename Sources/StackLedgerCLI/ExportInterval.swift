import Ledger

/// The interval an export covers: `--from`/`--to`, else from the first event of the
/// devices exported to a day after their last (decisions follow the events that cause
/// them), in microseconds.
func exportInterval(_ session: QuerySession, from: TimeArgument?, to: TimeArgument?) throws -> (Int64, Int64) {
    if let from, let to { return (from.timestamp.microseconds, to.timestamp.microseconds) }
    let day: Int64 = 86_400_000_000
    var first = Int64.max
    var last = Int64.min
    try session.ledger.read { r in
        for device in session.devices {
            if let span = try r.eventSpan(device: device) {
                first = min(first, span.first)
                last = max(last, span.last)
            }
        }
    }
    if first > last { (first, last) = (0, 0) }
    return (from?.timestamp.microseconds ?? first, to?.timestamp.microseconds ?? last + day)
}

import Forensics
import Foundation

/// A progress line on standard error for folds that take a while (a first answer on a
/// store without checkpoints, a what-if from early in the log): shown once a fold has
/// gone on for 0.3 s, rewritten at most every 0.2 s, and cleared when the fold ends,
/// before anything is printed on standard output.
final class FoldProgress {
    private var started: Date?
    private var shown = false
    private var last = Date.distantPast
    /// How many events a device has in the log, asked once a line is shown.
    private let eventCount: (String) -> Int?
    private var counted: (device: String, events: Int?)?

    init(eventCount: @escaping (String) -> Int?) { self.eventCount = eventCount }

    /// Notes that a fold of `device` has read `records` records; `done` at its end.
    func update(device: String, records: Int, done: Bool) {
        if done {
            if shown { printProgress("") }
            (started, shown) = (nil, false)
            return
        }
        let now = Date()
        let since = started ?? now
        started = since
        guard now.timeIntervalSince(since) >= 0.3, now.timeIntervalSince(last) >= 0.2 else { return }
        last = now
        shown = true
        if counted?.device != device { counted = (device, eventCount(device)) }
        printProgress(
            "replaying \(device)'s log: \(records)" + (counted?.events.map { " of its \($0)" } ?? "") + " events")
    }
}

import Foundation
import Ledger
import SmartStack
import Synchronization

/// Reads and decodes one device's records on a thread of its own, a few batches ahead of
/// the fold that applies them, so that a long lone fold (the refold after a late event,
/// a what-if from early in the log) spends its own core on the engine alone.
///
/// The records come in the fold's order (each batch reversed), each with its event
/// decoded when the fold is to apply it (recorded within `ceiling` and not left out) and
/// nil otherwise; a read or decoding error ends the batches and is thrown where the fold
/// takes the next one.
///
/// - Note: `@unchecked Sendable`: the reading block captures only Sendable values (the
///   ledger, the `batches` hand-off and the `read` count, both synchronised) and never
///   `self`; `finished`, the one mutable stored property, is used only by the folding
///   thread that owns the prefetch (`next()` and `stop()` are not called concurrently).
final class EventPrefetch: @unchecked Sendable {
    /// One record of the device, in (time, seq) order.
    struct Item {
        let time: Int64
        let seq: UInt64
        var event: Event?
    }

    private enum Batch {
        case items([Item])
        case failure(any Error)
    }

    /// Records per batch, unless told otherwise: one read transaction each.
    static let batchSize = 1_024
    /// Batches decoded ahead of the fold at most.
    static let ahead = 8

    private let queue = DispatchQueue(label: "stackledger.prefetch")
    private let batches = HandOff<Batch>(capacity: EventPrefetch.ahead)
    private var finished = false
    /// Batches the reading thread has read so far.
    private let read = ReadCount()
    /// Batches the reading thread read before it ended (all of them once `stop()` returns).
    var batchesRead: Int { read.count.withLock { $0 } }

    private final class ReadCount: Sendable {
        let count = Mutex(0)
    }

    /// Starts reading `device`'s records after `position` up to `limit` (event time,
    /// inclusive), decoding those with a sequence number within `ceiling` that
    /// `without` does not name.
    init(
        ledger: Ledger, device: String, after position: (time: Int64, seq: UInt64)?, through limit: Int64,
        ceiling: UInt64, without: Set<UInt64>, batchSize: Int = EventPrefetch.batchSize
    ) {
        queue.async { [batches, read] in
            defer { batches.finish() }
            var position = position
            let copies = PrivateStrings()
            do {
                while true {
                    var items = [Item]()
                    items.reserveCapacity(batchSize)
                    // The reader's strings are copies of its own, so the two threads do
                    // not contend for the same reference counts.
                    try ledger.read(copies: copies) { reader in
                        try reader.forEachRecord(
                            device: device, after: position, throughMicros: limit, identities: false
                        ) { view in
                            let included = view.seq <= ceiling && !without.contains(view.seq)
                            items.append(
                                Item(
                                    time: view.envelope.time.microseconds, seq: view.seq,
                                    event: included ? try Event(record: view) : nil))
                            return items.count < batchSize
                        }
                    }
                    read.count.withLock { $0 += 1 }
                    if let last = items.last { position = (last.time, last.seq) }
                    let done = items.count < batchSize
                    items.withUnsafeMutableBufferPointer { $0.reverse() }
                    // False once the fold stopped.
                    guard batches.send(.items(items)), !done else { return }
                }
            } catch {
                _ = batches.send(.failure(error))
            }
        }
    }

    /// The next batch of records, the last first (so that the fold can take them with
    /// `removeLast()`, moving each out); nil after the last batch.
    func next() throws -> [Item]? {
        if finished { return nil }
        switch batches.receive().item {
        case .items(let items):
            return items
        case .failure(let error):
            finished = true
            throw error
        case nil:
            finished = true
            return nil
        }
    }

    /// Stops the reading thread and waits for it to end.
    func stop() {
        if !finished {
            batches.cancel()
            // Take what it queued, up to its end, as the ledger's own pipeline does: the
            // hand-off's semaphores must not go away with slots still taken.
            while batches.receive().item != nil {}
            finished = true
        }
        queue.sync {}
    }
}

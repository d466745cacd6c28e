import Dispatch
import Synchronization

/// A bounded hand-off from one producing thread to one consuming thread.
public final class HandOff<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var finished = false
        var failure: String?
        var cancelled = false
    }
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let space: DispatchSemaphore

    /// Creates a hand-off holding at most `capacity` items.
    public init(capacity: Int) { space = DispatchSemaphore(value: capacity) }

    /// Blocks while full; returns false once the consumer cancelled.
    public func send(_ item: Item) -> Bool {
        space.wait()
        let ok = state.withLock { s -> Bool in
            if s.cancelled { return false }
            s.items.append(item)
            return true
        }
        available.signal()
        return ok
    }

    /// Marks the end, with the producer's failure if it failed.
    public func finish(failure: String? = nil) {
        state.withLock {
            $0.finished = true
            $0.failure = failure
        }
        available.signal()
    }

    /// The next item; nil at the end (with the producer's failure, if any).
    public func receive() -> (item: Item?, failure: String?) {
        available.wait()
        return state.withLock { s in
            if !s.items.isEmpty {
                space.signal()
                return (s.items.removeFirst(), nil)
            }
            return (nil, s.failure)
        }
    }

    /// Tells the producer to stop.
    public func cancel() {
        state.withLock { $0.cancelled = true }
        space.signal()
    }
}

extension Ledger {
    /// Appends `batches` in order, one durable commit each, encoding the next batch on a
    /// second thread while the current one commits.
    ///
    /// - Parameter onCommit: called after each commit with its receipt.
    /// - Throws: the first `LedgerError`; the batches committed before it stay committed.
    public func appendAll<E: LedgerPayload & Sendable>(
        _ batches: [[E]], onCommit: (AppendReceipt) -> Void = { _ in }
    ) throws(LedgerError) {
        try appendAll(
            producing: { (send: ([E]) -> Bool) in
                for batch in batches where !send(batch) { break }
            }, onCommit: onCommit)
    }

    /// Appends the batches that `produce` hands to `send`, in order, one durable commit
    /// each. `produce` runs on a second thread, where each batch is also encoded, while
    /// the calling thread commits; `send` returns false once the appends have failed.
    ///
    /// - Throws: the first `LedgerError`, or a `.storage` error carrying what `produce`
    ///   threw; the batches committed before it stay committed.
    public func appendAll<E: LedgerPayload & Sendable>(
        producing produce: @escaping @Sendable (_ send: ([E]) -> Bool) throws -> Void,
        onCommit: (AppendReceipt) -> Void = { _ in }
    ) throws(LedgerError) {
        let handOff = HandOff<PreparedBatch>(capacity: 2)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var failure: String?
            do {
                try produce { batch in handOff.send(self.prepare(batch)) }
            } catch {
                failure = "\(error)"
            }
            handOff.finish(failure: failure)
            done.signal()
        }
        defer { done.wait() }
        while true {
            let (prepared, failure) = handOff.receive()
            if let failure { throw LedgerError(.storage, failure) }
            guard let prepared else { return }
            do {
                onCommit(try append(prepared))
            } catch {
                handOff.cancel()
                while handOff.receive().item != nil {}
                throw error
            }
        }
    }
}

import Synchronization

/// Prepares many batches on several threads at once, for one writer that will commit them
/// in order (a bulk ingest). New strings get provisional ids from one shared counter; the
/// first batch committed defines them all, and each batch is checked at commit against
/// the string table the preparation started from.
public final class BulkPreparation: Sendable {
    private struct Shared {
        var snapshot: StringSnapshot
    }
    private let shared: Mutex<Shared>
    /// The store's string count when the preparation started.
    public let base: Int

    /// Starts from the store's committed string table.
    public init(ledger: Ledger) throws {
        let snapshot = try ledger.read { $0.strings }
        shared = Mutex(Shared(snapshot: snapshot))
        base = snapshot.count
    }

    /// Starts from an empty string table: for events prepared before the store they go to
    /// is known. Stored into a store that has strings, they are encoded again at commit.
    public init() {
        shared = Mutex(Shared(snapshot: StringSnapshot()))
        base = 0
    }

    /// The table as the preparation sees it: the store's strings it started from, then
    /// those it assigned provisionally.
    var provisional: StringSnapshot { shared.withLock { $0.snapshot } }

    /// The strings assigned provisionally so far, in id order.
    public var newStrings: [String] {
        shared.withLock { Array($0.snapshot.strings[(base + 1)...]) }
    }

    /// One thread's view: a local cache in front of the shared table.
    public final class Worker {
        let owner: BulkPreparation
        // A worker serves one thread (it is not Sendable), so its tables need no dynamic
        // exclusivity checks: `id(for:)` runs several times for every event.
        @exclusivity(unchecked) var local: [String: UInt32] = [:]
        /// Strings met recently, by their representation's bits: a decoder that shares one
        /// `String` for a value that repeats hands over the same bits each time, found here
        /// without hashing the text. An entry keeps its string alive, so equal bits mean
        /// the same string.
        @exclusivity(unchecked) private var recent = [Recent](
            repeating: Recent(bits: (0, 0), string: "", id: 0), count: 256)

        private struct Recent {
            var bits: (UInt64, UInt64)
            var string: String
            var id: UInt32
        }

        init(owner: BulkPreparation) { self.owner = owner }

        func id(for s: String) -> UInt32 {
            let bits = unsafeBitCast(s, to: (UInt64, UInt64).self)
            let slot = Int(truncatingIfNeeded: ((bits.0 ^ bits.1 &* 31) &* 0x9E37_79B9_7F4A_7C15) >> 56)
            if recent[slot].bits == bits && recent[slot].id != 0 { return recent[slot].id }
            let id = lookup(s)
            recent[slot] = Recent(bits: bits, string: s, id: id)
            return id
        }

        private func lookup(_ s: String) -> UInt32 {
            if let id = local[s] { return id }
            let id = owner.shared.withLock { state -> UInt32 in
                if let id = state.snapshot.id(of: s) { return id }
                return state.snapshot.append(s)
            }
            local[s] = id
            return id
        }
    }

    /// A worker for the calling thread.
    public func makeWorker() -> Worker { Worker(owner: self) }

    /// Encodes `events` with provisional string ids.
    ///
    /// The batch keeps no way to encode its events again: give it one when it is read
    /// back with `PreparedBatch.deserialized(_:reencode:)`, or pass `reencode`, which must
    /// store the same events through the writer's own interner.
    public func prepare<E: LedgerPayload & Sendable>(
        _ events: [E], worker: Worker,
        reencode: @escaping @Sendable (BatchWriter) throws -> AppendReceipt = { _ in
            throw LedgerError(
                .storage,
                "a bulk batch was committed without a way to encode it again; read it back with PreparedBatch.deserialized(_:reencode:)"
            )
        }
    ) -> PreparedBatch {
        let interner = Interner(lookup: worker.id(for:))
        return Ledger.encode(events, interner: interner, base: base, epoch: PreparedBatch.bulkEpoch, reencode: reencode)
    }
}

@available(*, unavailable)
extension BulkPreparation.Worker: Sendable {}

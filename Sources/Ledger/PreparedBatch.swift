import Synchronization

/// Events encoded for storage before the write transaction, so that encoding can run on
/// one core while another commits the previous batch.
///
/// Encoding interns strings provisionally: a string new to the store gets the next id
/// this process expects to assign. At commit the writer checks that the store's string
/// table is what the preparation assumed; if another writer changed it, the batch is
/// encoded again inside the transaction, so the ids stored are always right.
public struct PreparedBatch: Sendable {
    struct Record: Sendable {
        var start: Int
        var length: Int
        /// CRC-32C of the record's bytes (finished with the sequence number at commit).
        var bodyCRC: UInt32
        var device: UInt32
        var micros: Int64
        /// The id's key in `idKeys`, or an empty range.
        var idKey: Range<Int>
        /// The record's index keys in `keys`.
        var keys: Range<Int>
        var id: String?
    }

    var bytes: [UInt8] = []
    var records: [Record] = []
    var idKeys: [UInt8] = []
    var keys: [IndexKeyID] = []
    /// The string count the encoding assumed, and the strings it added after it.
    var base: Int
    var newStrings: [String]
    var epoch: Int
    /// Encodes the events again inside a transaction (when the assumption failed).
    let reencode: @Sendable (BatchWriter) throws -> AppendReceipt

    /// The epoch of bulk batches: checked by the string count alone.
    static let bulkEpoch = -2

    /// Makes a bulk batch the one that defines `strings` (the first one committed), or
    /// one that expects them defined.
    public mutating func setBulkStrings(defining strings: [String], base: Int) {
        self.base = base
        self.newStrings = strings
    }

    /// How many events the batch holds.
    public var count: Int { records.count }

    /// About how many bytes the batch holds in memory (its records, keys and strings).
    public var estimatedBytes: Int {
        bytes.count + idKeys.count + keys.count * 8 + records.count * 64 + newStrings.reduce(0) { $0 + $1.utf8.count }
    }
}

/// What the preparing threads know of the string table: the committed strings plus
/// those assigned provisionally to batches not yet committed.
struct PreparationState {
    var snapshot = StringSnapshot()
    /// The store's string count after this process's last commit.
    var committed = 0
    /// Bumped whenever provisional assignments are abandoned.
    var epoch = 0
}

extension Ledger {
    /// Encodes `events` for a later `append(_:)`, off the write path. Thread-safe.
    public func prepare<E: LedgerPayload & Sendable>(_ events: [E]) -> PreparedBatch {
        preparing.withLock { _ in
            let (snapshot, epoch) = preparation.withLock { state in
                if state.snapshot.count < stringTable.snapshot().count && state.snapshot.count == state.committed {
                    state.snapshot = stringTable.snapshot()
                    state.committed = state.snapshot.count
                }
                return (state.snapshot, state.epoch)
            }
            let interner = Interner(snapshot: snapshot)
            let batch = Ledger.encode(events, interner: interner, base: snapshot.count, epoch: epoch) { writer in
                try Ledger.store(events, in: writer)
            }
            // Provisional ids abandoned meanwhile (a failure, a foreign writer) stay abandoned:
            // the batch carries the old epoch and is re-encoded when it commits.
            preparation.withLock { state in
                if state.epoch == epoch { state.snapshot = interner.snapshot }
            }
            return batch
        }
    }

    /// Encodes events into a prepared batch with the given interner.
    static func encode<E: LedgerPayload>(
        _ events: [E], interner: Interner, base: Int, epoch: Int,
        reencode: @escaping @Sendable (BatchWriter) throws -> AppendReceipt
    ) -> PreparedBatch {
        var batch = PreparedBatch(base: base, newStrings: [], epoch: epoch, reencode: reencode)
        batch.bytes.reserveCapacity(events.count * 200)
        batch.records.reserveCapacity(events.count)
        var scratch = ByteWriter(capacity: 1024)
        var keys = [IndexKeyID]()
        for event in events {
            scratch.removeAll()
            let env = event.envelope
            RecordCodec.encode(event, envelope: env, interner: interner, into: &scratch, keys: &keys)
            let start = batch.bytes.count
            batch.bytes.append(contentsOf: scratch.bytes)
            let crc = scratch.bytes.withUnsafeBytes { CRC32C.update(0, $0) }
            var idRange = 0..<0
            if let id = env.id {
                let k = StoreKeys.eventID(id)
                idRange = batch.idKeys.count..<batch.idKeys.count + k.count
                batch.idKeys.append(contentsOf: k)
            }
            let keyStart = batch.keys.count
            batch.keys.append(contentsOf: keys)
            batch.records.append(
                .init(
                    start: start, length: scratch.count, bodyCRC: crc, device: interner.id(for: env.device),
                    micros: env.time.microseconds, idKey: idRange, keys: keyStart..<batch.keys.count, id: env.id))
        }
        batch.newStrings = interner.added
        return batch
    }

    /// Stores `events` one by one through the writer's own interner: what a prepared
    /// batch's `reencode` does when its provisional string ids cannot be used.
    public static func store<E: LedgerPayload>(_ events: [E], in writer: BatchWriter) throws -> AppendReceipt {
        var receipt = AppendReceipt(recordedAt: Timestamp(microseconds: writer.recordedMicros))
        for event in events { receipt.count(try writer.append(event)) }
        return receipt
    }

    /// Abandons provisional string ids (after a failure or a foreign writer), so that
    /// the next preparation starts from the committed table.
    func resetPreparation(committed: StringSnapshot) {
        preparation.withLock { state in
            state.snapshot = committed
            state.committed = committed.count
            state.epoch += 1
        }
    }
}

extension PreparedBatch {
    /// Reads each record back, in order, with the string table it was encoded with.
    func forEachView(strings: StringSnapshot, _ body: (RecordView) throws -> Void) throws {
        try bytes.withUnsafeBytes { arena in
            for r in records {
                let record = UnsafeRawBufferPointer(rebasing: arena[r.start..<r.start + r.length])
                let (envelope, header) = try RecordCodec.decodeHeader(body: record, strings: strings)
                try body(
                    RecordView(seq: 0, recordedMicros: 0, envelope: envelope, header: header, strings: strings.strings))
            }
        }
    }

    /// The batch's events, made again by `decode` from each record, with the strings of the
    /// bulk preparation that encoded them.
    public func events<E>(preparedBy bulk: BulkPreparation, _ decode: (RecordView) throws -> E) throws -> [E] {
        var out = [E]()
        out.reserveCapacity(records.count)
        try forEachView(strings: bulk.provisional) { out.append(try decode($0)) }
        return out
    }

}

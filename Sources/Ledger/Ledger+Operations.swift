import LMDBKit

/// One put of the store's write path, for replaying by a baseline.
public struct WriteOperation: Sendable {
    /// The database: 0 log, 1 (device, time) index, 2 key index, 3 id table.
    public var database: UInt32
    /// The key and value bytes, as the store wrote them.
    public var key: [UInt8], value: [UInt8]
}

extension Ledger {
    /// The puts that appending this store's records made, in order (per record: the id,
    /// the record, the (device, time) entry, the key entries), so that a benchmark can
    /// replay exactly the same LMDB work without the ledger around it.
    public func writeOperations() throws -> [WriteOperation] {
        try read { reader in
            var ops = [WriteOperation]()
            let strings = reader.strings
            try reader.scan { view in
                let seqKey = withUnsafeBytes(of: view.seq.bigEndian) { Array($0) }
                let env = view.envelope
                if let id = env.id { ops.append(.init(database: 3, key: StoreKeys.eventID(id), value: seqKey)) }
                var key = StoreKeys.seq(view.seq)
                let record =
                    try withUnsafeBytes(of: &key) { try reader.txn.get(databases.log, key: $0) }.map(Array.init) ?? []
                ops.append(.init(database: 0, key: seqKey, value: record))
                let device = withUnsafeBytes(of: StoreKeys.stringID(strings.id(of: env.device) ?? 0)) { Array($0) }
                let timeSeq = withUnsafeBytes(of: StoreKeys.timeSeq(env.time.microseconds, view.seq)) { Array($0) }
                ops.append(.init(database: 1, key: device, value: timeSeq))
                for k in view.indexKeyIDs {
                    ops.append(.init(database: 2, key: k.withKey { Array($0) }, value: seqKey))
                }
                return true
            }
            return ops
        }
    }
}

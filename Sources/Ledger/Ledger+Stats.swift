import LMDBKit

/// What `Ledger.statistics` reports about a store.
public struct LedgerStatistics: Sendable {
    /// Events by type name.
    public var countsByType: [String: Int] = [:]
    /// Events by device.
    public var countsByDevice: [String: Int] = [:]
    /// All events.
    public var events = 0
    /// The earliest and latest event times.
    public var firstTime: Timestamp?, lastTime: Timestamp?
    /// The data file's size in bytes.
    public var fileBytes = 0
    /// Pages in use by the map (every database, free list included), times the page size.
    public var usedBytes = 0
    /// Pages the databases' B-trees occupy, times the page size.
    public var treeBytes = 0
    /// Bytes of the pages of derived data (engine checkpoints): rebuilt from the log at will.
    public var derivedBytes = 0
    /// Commits (batches).
    public var batches = 0
    /// The chain head.
    public var head: ChainHead?

    /// Used bytes per event.
    public var bytesPerEvent: Double { events == 0 ? 0 : Double(usedBytes) / Double(events) }
}

extension Ledger {
    /// Counts the events by type and device and measures the store.
    public func statistics() throws -> LedgerStatistics {
        try read { reader in
            var stats = LedgerStatistics()
            var byType = [String: Int]()
            var byDevice = [String: Int]()
            try reader.scan { view in
                byType[view.envelope.type, default: 0] += 1
                byDevice[view.envelope.device, default: 0] += 1
                let t = view.envelope.time
                if stats.firstTime.map({ t.microseconds < $0.microseconds }) ?? true { stats.firstTime = t }
                if stats.lastTime.map({ t.microseconds > $0.microseconds }) ?? true { stats.lastTime = t }
                stats.events += 1
                return true
            }
            stats.countsByType = byType
            stats.countsByDevice = byDevice
            let info = environment.info()
            stats.fileBytes = dataFileSize
            stats.usedBytes = info.usedBytes
            let dbs = databases
            stats.treeBytes = try logPages(reader) * info.pageSize
            stats.derivedBytes = try dbs.derived.map { try reader.txn.statistics($0).pages * info.pageSize } ?? 0
            stats.batches = try reader.txn.statistics(dbs.batches).entries
            stats.head = try reader.chainHead()
            return stats
        }
    }

    /// The pages of the log's databases: records, indices, strings, batches, ids (what
    /// `statistics()` reports as `treeBytes`, in pages).
    private func logPages(_ reader: LedgerReader) throws -> Int {
        let dbs = databases
        var pages = 0
        for db in [dbs.meta, dbs.log, dbs.strings, dbs.batches, dbs.deviceTime, dbs.keys, dbs.ids] {
            pages += try reader.txn.statistics(db).pages
        }
        return pages
    }

    /// The log's bytes (`statistics().treeBytes`) per stored event, from the databases'
    /// page counts alone; nil for a store without events.
    public func logBytesPerEvent() throws -> Double? {
        try read { reader in
            let events = try reader.txn.statistics(databases.log).entries
            guard events > 0 else { return nil }
            return Double(try logPages(reader) * environment.info().pageSize) / Double(events)
        }
    }
}

internal import CLMDB

/// An LMDB transaction, read-only or read-write.
///
/// Get one from `Environment.read` or `Environment.write`; it is valid only inside the
/// closure. Buffers returned by `get` and cursors point into the map and are valid only
/// until the transaction ends.
public final class Transaction {
    let handle: OpaquePointer
    /// The environment this transaction belongs to.
    public let environment: Environment
    /// Whether this is a read-only transaction.
    public let isReadOnly: Bool
    private(set) var isOpen = true

    init(environment: Environment, readOnly: Bool) throws(LMDBError) {
        var txn: OpaquePointer?
        let flags: UInt32 = readOnly ? UInt32(MDB_RDONLY) : 0
        try check(mdb_txn_begin(environment.handle, nil, flags, &txn), "mdb_txn_begin")
        guard let txn else { throw LMDBError(code: MDB_BAD_TXN, operation: "mdb_txn_begin") }
        self.handle = txn
        self.environment = environment
        self.isReadOnly = readOnly
    }

    deinit {
        abortIfOpen()
    }

    /// LMDB's id of this transaction: for a read-only one, the id of the newest committed
    /// write transaction it sees, which every commit advances.
    public var id: Int { Int(mdb_txn_id(handle)) }

    func commit() throws(LMDBError) {
        guard isOpen else { return }
        isOpen = false
        // mdb_txn_commit frees the transaction whatever it returns.
        try check(mdb_txn_commit(handle), "mdb_txn_commit")
    }

    func abortIfOpen() {
        guard isOpen else { return }
        isOpen = false
        mdb_txn_abort(handle)
    }

    /// Opens a named database (`mdb_dbi_open`). Use in a write transaction with
    /// `.create` the first time.
    public func openDatabase(_ name: String, flags: Database.Flags = []) throws(LMDBError) -> Database {
        var dbi: MDB_dbi = 0
        try check(mdb_dbi_open(handle, name, flags.rawValue, &dbi), "mdb_dbi_open \(name)")
        return Database(dbi: dbi)
    }

    /// The value stored under `key`, or nil. The buffer lives until the transaction ends.
    public func get(_ db: Database, key: UnsafeRawBufferPointer) throws(LMDBError) -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = mdb_get(handle, db.dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_get")
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    /// Stores `value` under `key` (`mdb_put`).
    ///
    /// - Returns: with `.noOverwrite`, the existing value when the key was present
    ///   (nothing is written then); otherwise nil.
    @discardableResult
    public func put(
        _ db: Database, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags = []
    ) throws(LMDBError) -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_put(handle, db.dbi, &k, &v, flags.rawValue)
        if rc == MDB_KEYEXIST && flags.contains(.noOverwrite) {
            return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        }
        try check(rc, "mdb_put")
        return nil
    }

    /// Deletes `key` (and with `value`, only that duplicate). Returns whether it existed.
    @discardableResult
    public func delete(_ db: Database, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer? = nil)
        throws(LMDBError) -> Bool
    {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        let rc: Int32
        if let value {
            var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            rc = mdb_del(handle, db.dbi, &k, &v)
        } else {
            rc = mdb_del(handle, db.dbi, &k, nil)
        }
        if rc == MDB_NOTFOUND { return false }
        try check(rc, "mdb_del")
        return true
    }

    /// Removes every item of the database (`mdb_drop` without deleting it).
    public func clear(_ db: Database) throws(LMDBError) {
        try check(mdb_drop(handle, db.dbi, 0), "mdb_drop")
    }

    /// Statistics of a database (`mdb_stat`).
    public func statistics(_ db: Database) throws(LMDBError) -> Database.Statistics {
        var s = MDB_stat()
        try check(mdb_stat(handle, db.dbi, &s), "mdb_stat")
        return Database.Statistics(
            entries: s.ms_entries, depth: Int(s.ms_depth), branchPages: s.ms_branch_pages,
            leafPages: s.ms_leaf_pages, overflowPages: s.ms_overflow_pages)
    }

    /// Opens a cursor over `db`; it is closed when the returned value is released
    /// and must not outlive the transaction.
    public func cursor(_ db: Database) throws(LMDBError) -> Cursor {
        try Cursor(transaction: self, database: db)
    }
}

extension Transaction {
    /// `get` with a key given as bytes.
    public func get(_ db: Database, key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { try get(db, key: $0) }
    }

    /// `put` with key and value given as bytes.
    @discardableResult
    public func put(_ db: Database, key: [UInt8], value: [UInt8], flags: PutFlags = []) throws
        -> UnsafeRawBufferPointer?
    {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(db, key: k, value: v, flags: flags) } }
    }
}

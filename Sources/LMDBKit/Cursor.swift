internal import CLMDB

/// A cursor over one database in one transaction (`MDB_cursor`).
///
/// Positioning calls return the key and value at the new position, or nil at the end.
/// The buffers point into the map and are valid until the transaction ends.
public final class Cursor {
    let handle: OpaquePointer
    private let transaction: Transaction

    /// A key and its value.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    init(transaction: Transaction, database: Database) throws(LMDBError) {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(transaction.handle, database.dbi, &cursor), "mdb_cursor_open")
        guard let cursor else { throw LMDBError(code: MDB_BAD_TXN, operation: "mdb_cursor_open") }
        self.handle = cursor
        self.transaction = transaction
    }

    deinit {
        mdb_cursor_close(handle)
    }

    private func move(_ op: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil, value: UnsafeRawBufferPointer? = nil)
        throws(LMDBError) -> Entry?
    {
        var k = MDB_val(mv_size: key?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: key?.baseAddress))
        var v = MDB_val(mv_size: value?.count ?? 0, mv_data: UnsafeMutableRawPointer(mutating: value?.baseAddress))
        let rc = mdb_cursor_get(handle, &k, &v, op)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "mdb_cursor_get")
        return (
            UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
            UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        )
    }

    /// Moves to the first item (`MDB_FIRST`).
    public func first() throws(LMDBError) -> Entry? { try move(MDB_FIRST) }
    /// Moves to the last item (`MDB_LAST`).
    public func last() throws(LMDBError) -> Entry? { try move(MDB_LAST) }
    /// Moves to the next item, duplicates included (`MDB_NEXT`).
    public func next() throws(LMDBError) -> Entry? { try move(MDB_NEXT) }
    /// Moves to the previous item (`MDB_PREV`).
    public func previous() throws(LMDBError) -> Entry? { try move(MDB_PREV) }
    /// Moves to the first key at or after `key` (`MDB_SET_RANGE`).
    public func seek(atOrAfter key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_SET_RANGE, key: key)
    }
    /// Moves to exactly `key` (`MDB_SET_KEY`).
    public func seek(exactly key: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_SET_KEY, key: key)
    }
    /// With duplicates: moves to the first value of `key` at or after `value` (`MDB_GET_BOTH_RANGE`).
    public func seek(key: UnsafeRawBufferPointer, valueAtOrAfter value: UnsafeRawBufferPointer) throws(LMDBError)
        -> Entry?
    {
        try move(MDB_GET_BOTH_RANGE, key: key, value: value)
    }
    /// With duplicates: moves to exactly this key and value (`MDB_GET_BOTH`).
    public func seek(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws(LMDBError) -> Entry? {
        try move(MDB_GET_BOTH, key: key, value: value)
    }
    /// With duplicates: the next value of the current key (`MDB_NEXT_DUP`).
    public func nextDuplicate() throws(LMDBError) -> Entry? { try move(MDB_NEXT_DUP) }
    /// With duplicates: the previous value of the current key (`MDB_PREV_DUP`).
    public func previousDuplicate() throws(LMDBError) -> Entry? { try move(MDB_PREV_DUP) }
    /// With duplicates: the first item of the next key (`MDB_NEXT_NODUP`).
    public func nextKey() throws(LMDBError) -> Entry? { try move(MDB_NEXT_NODUP) }
    /// With duplicates: the last value of the current key (`MDB_LAST_DUP`).
    public func lastDuplicate() throws(LMDBError) -> Entry? { try move(MDB_LAST_DUP) }

    /// How many values the current key holds (`mdb_cursor_count`).
    public func duplicateCount() throws(LMDBError) -> Int {
        var n: Int = 0
        try check(mdb_cursor_count(handle, &n), "mdb_cursor_count")
        return n
    }

    /// Stores a key and value through the cursor (`mdb_cursor_put`).
    ///
    /// A cursor that stays open finds a key near its last one without descending the tree
    /// again, so a run of puts to neighbouring keys costs less through it than `mdb_put`.
    /// - Returns: with `.noOverwrite`, the existing value when the key was present
    ///   (nothing is written then); otherwise nil.
    @discardableResult
    public func put(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, flags: PutFlags = []) throws(LMDBError)
        -> UnsafeRawBufferPointer?
    {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        let rc = mdb_cursor_put(handle, &k, &v, flags.rawValue)
        if rc == MDB_KEYEXIST && flags.contains(.noOverwrite) {
            return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        }
        try check(rc, "mdb_cursor_put")
        return nil
    }

    /// Reserves `length` bytes for `key`'s value through the cursor and returns them to be
    /// filled before the transaction ends (`mdb_cursor_put` with `MDB_RESERVE`).
    public func reserve(key: UnsafeRawBufferPointer, length: Int, flags: PutFlags = []) throws(LMDBError)
        -> UnsafeMutableRawBufferPointer
    {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: length, mv_data: nil)
        try check(mdb_cursor_put(handle, &k, &v, flags.rawValue | UInt32(MDB_RESERVE)), "mdb_cursor_put")
        return UnsafeMutableRawBufferPointer(start: v.mv_data, count: length)
    }

    /// Deletes the item at the cursor (`mdb_cursor_del`).
    public func deleteCurrent() throws(LMDBError) {
        try check(mdb_cursor_del(handle, 0), "mdb_cursor_del")
    }
}

@available(*, unavailable)
extension Cursor: Sendable {}

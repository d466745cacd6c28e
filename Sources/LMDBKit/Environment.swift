internal import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// An LMDB environment: one data file and its lock file, memory-mapped.
///
/// The environment is opened with `MDB_NOTLS`, so a transaction belongs to its
/// `Transaction` value, not to a thread. Transactions are closures:
/// ```swift
/// let env = try Environment(path: dir, options: .init(maximumDatabases: 8))
/// let db = try env.write { try $0.openDatabase("log", flags: .create) }
/// try env.write { txn in try txn.put(db, key: k, value: v) }
/// ```
///
/// - Note: `@unchecked Sendable`: LMDB environments may be shared between threads
///   (its documentation), and the only mutable Swift state, the map size, is changed
///   under `resizeLock` while no transaction of this process is open.
public final class Environment: @unchecked Sendable {
    let handle: OpaquePointer
    private let resizeLock: ResizeLock
    /// The options the environment was opened with.
    public let options: Options
    /// The directory (or file, with `.noSubdirectory`) of the environment.
    public let path: String

    /// Opens (and with `.create` creates) an environment.
    ///
    /// - Parameters:
    ///   - path: the directory that holds `data.mdb` and `lock.mdb`.
    ///   - options: map size, growth, readers, databases and flags.
    /// - Throws: `LMDBError` when LMDB refuses (for example `.invalid` for a file that
    ///   is not an LMDB environment, `.versionMismatch`, or an `errno` code).
    public init(path: String, options: Options = Options()) throws(LMDBError) {
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "mdb_env_create")
        guard let env else { throw LMDBError(code: EINVAL, operation: "mdb_env_create") }
        do {
            try check(mdb_env_set_maxdbs(env, MDB_dbi(options.maximumDatabases)), "mdb_env_set_maxdbs")
            try check(mdb_env_set_maxreaders(env, UInt32(options.maximumReaders)), "mdb_env_set_maxreaders")
            try check(mdb_env_set_mapsize(env, options.initialMapSize), "mdb_env_set_mapsize")
            let flags = options.flags.rawValue | UInt32(MDB_NOTLS)
            try check(mdb_env_open(env, path, flags, mode_t(options.fileMode)), "mdb_env_open \(path)")
            Self.closeOnExec(env)
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.handle = env
        self.options = options
        self.path = path
        self.resizeLock = ResizeLock()
    }

    deinit {
        mdb_env_close(handle)
    }

    /// Marks the data file's descriptor close-on-exec (LMDB opens its lock file and its
    /// synchronous writer so, not this one): no program a crash handler or anything else
    /// starts can inherit a descriptor that writes into the store.
    private static func closeOnExec(_ env: OpaquePointer) {
        var fd: Int32 = -1
        guard mdb_env_get_fd(env, &fd) == 0, fd >= 0 else { return }
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Clears reader slots left by processes that died (`mdb_reader_check`).
    /// - Returns: how many stale slots were cleared.
    @discardableResult
    public func clearStaleReaders() throws(LMDBError) -> Int {
        var dead: Int32 = 0
        try check(mdb_reader_check(handle, &dead), "mdb_reader_check")
        return Int(dead)
    }

    /// Runs `body` in a read-only transaction, which ends when `body` returns.
    ///
    /// The body is synchronous: never hold a transaction across an `await`.
    @discardableResult
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        resizeLock.lockShared()
        defer { resizeLock.unlockShared() }
        let txn = try beginRetryingResize(readOnly: true)
        defer { txn.abortIfOpen() }
        let result = try body(txn)
        // Committing (rather than aborting) keeps databases opened in this transaction.
        try txn.commit()
        return result
    }

    /// Runs `body` in a write transaction: commits when it returns, aborts when it throws.
    ///
    /// LMDB allows one write transaction at a time across all processes; this call
    /// waits for the lock. When the map is full and `options.growsAutomatically` is set,
    /// the transaction is aborted, the map doubled, and `body` run again from the start,
    /// so `body` must not change outside state before it returns.
    ///
    /// - Throws: what `body` throws, or `LMDBError` from LMDB (`.mapFull` when growth
    ///   is off or the maximum map size is reached).
    @discardableResult
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        while true {
            do {
                return try writeOnce(body)
            } catch LMDBError.mapFull where options.growsAutomatically {
                try grow()
            }
        }
    }

    private func writeOnce<T>(_ body: (Transaction) throws -> T) throws -> T {
        resizeLock.lockShared()
        defer { resizeLock.unlockShared() }
        let txn = try beginRetryingResize(readOnly: false)
        do {
            let result = try body(txn)
            try txn.commit()
            return result
        } catch {
            txn.abortIfOpen()
            throw error
        }
    }

    private func beginRetryingResize(readOnly: Bool) throws(LMDBError) -> Transaction {
        var attempts = 0
        while true {
            do {
                return try Transaction(environment: self, readOnly: readOnly)
            } catch LMDBError.mapResized where attempts < 3 {
                // Another process grew the map: adopt its size (LMDB's documented remedy).
                attempts += 1
                mdb_env_set_mapsize(handle, 0)
            }
        }
    }

    /// Grows the map (when `options.growsAutomatically` is set) until `bytes` more fit after
    /// the pages in use, so that a large write transaction is not aborted and run again
    /// each time the map fills. The map is address space only: the file grows as written.
    public func reserve(_ bytes: Int) throws(LMDBError) {
        guard options.growsAutomatically, bytes > 0 else { return }
        while true {
            let info = info()
            let used = (info.lastPageNumber + 1) * info.pageSize
            guard info.mapSize < used + bytes, info.mapSize < options.maximumMapSize else { return }
            try grow()
        }
    }

    /// Doubles the map size, up to `options.maximumMapSize`.
    /// - Throws: `.mapFull` when the maximum is reached.
    public func grow() throws(LMDBError) {
        resizeLock.lockExclusive()
        defer { resizeLock.unlockExclusive() }
        let current = info().mapSize
        guard current < options.maximumMapSize else { throw .mapFull }
        let next = min(options.maximumMapSize, max(current * 2, current + 1 << 20))
        try check(mdb_env_set_mapsize(handle, next), "mdb_env_set_mapsize")
    }

    /// Facts about the map: its size, the last page used, the page size and readers.
    public func info() -> Info {
        var info = MDB_envinfo()
        mdb_env_info(handle, &info)
        var stat = MDB_stat()
        mdb_env_stat(handle, &stat)
        return Info(
            mapSize: info.me_mapsize,
            lastPageNumber: Int(info.me_last_pgno),
            pageSize: Int(stat.ms_psize),
            maximumReaders: Int(info.me_maxreaders),
            readersInUse: Int(info.me_numreaders)
        )
    }

    /// Flushes the data to disk (`mdb_env_sync` with force).
    public func sync() throws(LMDBError) {
        try check(mdb_env_sync(handle, 1), "mdb_env_sync")
    }
}

@available(*, unavailable)
extension Transaction: Sendable {}

#if canImport(Glibc)
    import Glibc
#endif

/// A readers-writer lock: transactions hold it shared, a map resize exclusively,
/// because `mdb_env_set_mapsize` may run only while this process has no transaction.
///
/// - Note: `@unchecked Sendable`: the only state is a `pthread_rwlock_t`, allocated once
///   and used only through its own locking calls.
final class ResizeLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { pthread_rwlock_rdlock(lock) }
    func unlockShared() { pthread_rwlock_unlock(lock) }
    func lockExclusive() { pthread_rwlock_wrlock(lock) }
    func unlockExclusive() { pthread_rwlock_unlock(lock) }
}

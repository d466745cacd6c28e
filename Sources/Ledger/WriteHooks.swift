import Foundation
import Synchronization

/// Lets tests act while a commit holds the store's write lock: a hook in this process, or,
/// for a test that kills a writer in another process, the environment variable
/// `STACKLEDGER_TEST_HOLD_WRITE_LOCK=PATH`, which makes a write transaction create PATH once
/// it holds the lock and then wait there (until the process is killed): the first one, or
/// the one after `STACKLEDGER_TEST_HOLD_AFTER_COMMITS=N` transactions. Neither is set in
/// normal use, and then a commit does nothing more.
public enum WriteHooks {
    private static let hook = Mutex<(@Sendable (String) -> Void)?>(nil)
    private static let holdPath: String? = ProcessInfo.processInfo.environment["STACKLEDGER_TEST_HOLD_WRITE_LOCK"]
    private static let holdAfter =
        Int(ProcessInfo.processInfo.environment["STACKLEDGER_TEST_HOLD_AFTER_COMMITS"] ?? "") ?? 0
    private static let transactions = Mutex(0)

    /// Runs `body` with `inside` called in every write transaction of this process, with
    /// the store's path, after the write lock is taken and before anything is written.
    /// Tests that run at the same time write to other stores: act on your store's path only.
    public static func whileInsideWrite<T>(_ inside: @escaping @Sendable (String) -> Void, _ body: () throws -> T)
        rethrows -> T
    {
        hook.withLock { $0 = inside }
        defer { hook.withLock { $0 = nil } }
        return try body()
    }

    /// Called by a write transaction of the store at `path` once it holds the lock.
    static func insideWrite(path: String) {
        if let inside = hook.withLock({ $0 }) { inside(path) }
        if let holdPath,
            transactions.withLock({ n in
                n += 1
                return n > holdAfter
            })
        {
            _ = FileManager.default.createFile(atPath: holdPath, contents: Data("\(getpid())\n".utf8))
            while true { sleep(60) }
        }
    }
}

import NIOCore
import NIOPosix

extension StackLedgerServer {
    /// Event loops a core. With two, the kernel shares each core between two loops, so
    /// that a loop busy answering quick questions one after another never holds back the
    /// connections of another: a loop runs every task it has before it reads sockets
    /// again, and with one loop a core, some connections waited hundreds of milliseconds.
    static let eventLoopsPerCore = 2

    /// Makes the event loops that serve the connections (two a core) Swift Concurrency's
    /// global executor, so that a request's handler runs on its connection's thread: a
    /// quick question (`QuickAnswers`) is then read, answered and written by one thread,
    /// with no other thread woken on the way. Call it once, from the main thread, before
    /// any task runs; false when the platform does not allow it (the server then works as
    /// before, its handlers on Swift's own pool of threads).
    @discardableResult
    public static func answerOnEventLoops() -> Bool {
        NIOSingletons.groupLoopCountSuggestion = eventLoopsPerCore * System.coreCount
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}

import NIOCore
import NIOPosix

extension StackLedgerServer {
    /// Makes the event loops that serve the connections Swift Concurrency's global
    /// executor, so that a request's handler runs on its connection's thread: a quick
    /// question (`QuickAnswers`) is then read, answered and written by one thread, with no
    /// thread woken on the way. Call it once, from the main thread, before any task runs;
    /// false when the platform does not allow it (the server then works as before, its
    /// handlers on Swift's own pool of threads).
    @discardableResult
    public static func answerOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}

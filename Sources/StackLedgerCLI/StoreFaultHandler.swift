import Forensics

#if canImport(Glibc)
    import Glibc
#endif

/// Ends an import cleanly when the disk cannot take a page of its commit.
///
/// An import writes its commit's pages into the store's mapped file
/// (`Ledger.Options.writesInPlace`). When the disk is full or failing, writing such a page
/// faults (SIGBUS) instead of failing a call. Nothing of the commit in progress is stored
/// then: the store's root is written only once every page is. This handler prints what
/// happened and ends the process with the I/O exit code (74); the next writer proceeds as
/// after any writer that died (the lock is LMDB's, robust to its holder's death).
enum StoreFaultHandler {
    /// The line to print, made before any fault: the handler only writes it and exits.
    nonisolated(unsafe) private static var message: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var exitCode: Int32 = 0

    /// Installs the handler for this process, naming the store at `store` in its message.
    static func install(store: String) {
        guard message == nil else { return }
        let text =
            "stackledger: the disk holding the store at \(store.oneLine) could not take a page of the import (it is full or failing). "
            + "Nothing of the commit in progress was stored, and what was committed before it is whole: free space and run the import again "
            + "(what is already stored is recognised as duplicates and not stored twice)\n"
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
        _ = buffer.initialize(from: text.utf8)
        message = buffer
        exitCode = ExitCodes.ioError
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            if let line = StoreFaultHandler.message {
                var done = 0
                while done < line.count {
                    let n = write(2, line.baseAddress! + done, line.count - done)
                    if n <= 0 { break }
                    done += n
                }
            }
            _exit(StoreFaultHandler.exitCode)
        }
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }
}

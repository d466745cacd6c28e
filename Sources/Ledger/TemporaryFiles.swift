import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The temporary directories a command works in (`stackledger-<use>-<pid>-XXXXXX` under
/// `$TMPDIR`): removed when the command ends, when SIGINT or SIGTERM stops it, and, if it
/// was killed outright, by the next command that makes one, once no process of that id runs.
package enum TemporaryFiles {
    /// The directories made and not yet removed, and whether the signal handlers are in.
    private static let registry = Mutex<(paths: [String], handlersInstalled: Bool)>(([], false))

    /// The directory temporary files go in.
    static var base: String {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return dir.isEmpty ? "/tmp" : dir
    }

    /// Makes a private directory for `use` and registers it for removal.
    package static func makeDirectory(_ use: String) throws -> String {
        removeStale()
        var template = Array("\(base)/stackledger-\(use)-\(getpid())-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw LedgerError(
                .storage,
                "cannot create a temporary directory in \(base): \(String(cString: strerror(errno))); set TMPDIR to a writable directory"
            )
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let install = registry.withLock { registry in
            registry.paths.append(path)
            defer { registry.handlersInstalled = true }
            return !registry.handlersInstalled
        }
        if install { installHandlers() }
        return path
    }

    /// Removes a directory made by `makeDirectory`, and forgets it.
    package static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        registry.withLock { registry in registry.paths.removeAll { $0 == path } }
    }

    /// Removes the directories of commands that no longer run: those named with a process
    /// id that is gone, and those of the older unnamed form untouched for a day.
    package static func removeStale() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        let dayAgo = Date().addingTimeInterval(-86_400)
        for name in names where name.hasPrefix("stackledger-") {
            let parts = name.split(separator: "-")
            let path = base + "/" + name
            if parts.count == 4, let pid = Int32(parts[2]) {
                if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                    try? FileManager.default.removeItem(atPath: path)
                }
            } else if parts.count == 3, ["spool", "stdin"].contains(parts[1]),
                let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < dayAgo
            {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    private static func installHandlers() {
        // A parent may have started this process with these signals blocked: take them.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { sig in
                // A signal that lands while this thread holds the lock removes nothing rather than wait forever.
                let paths = TemporaryFiles.registry.withLockIfAvailable { $0.paths } ?? []
                for path in paths { try? FileManager.default.removeItem(atPath: path) }
                _exit(128 + sig)
            }
        }
    }
}

import Foundation
import StackLedgerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command that crashes (SIGILL, SIGSEGV, SIGABRT, with the Swift runtime's crash reporter
/// on, as a user runs it) never writes into the store: every descriptor on the store is
/// close-on-exec, so nothing the crash handler starts can reach it, and `verify` passes after.
@Suite("Crashes never write into the store", .serialized)
struct CrashSignalTests {
    /// The descriptors of process `pid` open on files under `store`, with whether each is
    /// close-on-exec.
    static func storeDescriptors(pid: Int32, store: String) -> [(String, Bool)] {
        let dir = "/proc/\(pid)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return entries.compactMap { n in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + n),
                target.hasPrefix(store),
                let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(n)", encoding: .utf8),
                let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") })
                    .flatMap({ Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
            else { return nil }
            return (target, flags & Int(O_CLOEXEC) != 0)
        }
    }

    /// A child started with `posix_spawn` and reaped with `waitpid`: Foundation's `Process`
    /// can miss the exit of a child a signal killed.
    struct Child {
        let pid: pid_t
        var status: Int32?

        /// Whether it still runs (reaping it when it has ended).
        mutating func isRunning() -> Bool {
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = raw
                return false
            }
            return true
        }

        mutating func wait() {
            var raw: Int32 = 0
            if status == nil, waitpid(pid, &raw, 0) == pid { status = raw }
        }
    }

    func start(_ arguments: [String], store: String) throws -> Child {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = URL(fileURLWithPath: store).deletingLastPathComponent().path
        environment.removeValue(forKey: "SWIFT_BACKTRACE")
        let argv = ([CLI.executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, CLI.executable, &actions, nil, argv, envp)
        try #require(rc == 0, "posix_spawn: \(rc)")
        return Child(pid: pid)
    }

    /// Waits until `child` holds the store open, up to 20 s. The descriptors are read again
    /// a moment after they first show: the store is open once `mdb_env_open` has returned
    /// and its descriptors are marked, not while LMDB is still opening it.
    func waitForStore(_ child: inout Child, store: String) -> [(String, Bool)] {
        for _ in 0..<400 {
            let open = Self.storeDescriptors(pid: child.pid, store: store)
            if open.contains(where: { $0.0.hasSuffix("data.mdb") }) || !child.isRunning() {
                guard child.isRunning() else { return open }
                Thread.sleep(forTimeInterval: 0.02)
                let settled = Self.storeDescriptors(pid: child.pid, store: store)
                return settled.isEmpty ? open : settled
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return []
    }

    @Test("serve, ingest and rebuild killed by SIGILL, SIGSEGV or SIGABRT mid-work leave a store that verifies")
    func crashes() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(6_000, seed: 7))
        for (k, signal) in [SIGILL, SIGSEGV, SIGABRT].enumerated() {
            let store = dir.file("store-\(k)")
            #expect(try CLI.run(["ingest", "--store", store, input]).status == 0)
            let commands: [[String]] = [
                ["serve", "--store", store, "--port", "0"],
                ["ingest", "--store", store, "--batch-size", "200", input, dir.file("more-\(k).ndjson")],
                ["rebuild", "--store", store, "--threads", "1"],
                ["import", "knowledgec", Fixtures.path("data/knowledgec/knowledgec-10.14.db"), "--store", store],
            ]
            try workload(6_000, seed: 100 + UInt64(k)).write(
                toFile: dir.file("more-\(k).ndjson"), atomically: true, encoding: .utf8)
            for command in commands {
                var child = try start(command, store: store)
                let open = waitForStore(&child, store: store)
                #expect(!open.isEmpty || !child.isRunning(), "\(command[0]): never opened the store")
                for (file, closeOnExec) in open { #expect(closeOnExec, "\(command[0]): \(file) is not close-on-exec") }
                if child.isRunning() { kill(child.pid, signal) }
                // A process that blocks the signal (serve takes SIGABRT only from itself) is
                // killed outright after a while: a kill is a crash too.
                for _ in 0..<30 where child.isRunning() { Thread.sleep(forTimeInterval: 0.1) }
                if child.isRunning() { kill(child.pid, SIGKILL) }
                child.wait()
                let verify = try CLI.run(["verify", "--store", store])
                #expect(verify.status == 0, "\(command[0]) after signal \(signal): \(verify.stdout)\(verify.stderr)")
            }
        }
    }
}

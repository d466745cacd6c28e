import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole or not at all: the bytes go to a temporary file beside it, which
/// is synced and renamed over the path at `commit()`; one that is never committed (a failed
/// or killed export) is removed, so no reader ever sees half a file. The path `-` is
/// standard output, written as it comes.
final class OutputFile {
    let path: String
    let temporaryPath: String
    private var fd: Int32
    private var buffer = [UInt8]()
    private var committed = false
    /// Whether the output is standard output (`--out -`).
    let isStandardOutput: Bool

    /// Creates the temporary file beside `path` (exit 74 when the directory cannot take it;
    /// 64 when `path` names something that exists and is not a regular file).
    init(path: String) throws {
        self.path = path
        if path == "-" {
            isStandardOutput = true
            temporaryPath = ""
            fd = -1
            return
        }
        isStandardOutput = false
        try Self.refuseNonRegular(path)
        let (directory, name) = Self.split(path)
        Self.removeStalePartials(in: directory, name: name)
        temporaryPath = directory + "/.\(name).partial-\(getpid())"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw fail(
                "\(path): cannot create a file beside it (\(String(cString: strerror(errno)))); check the directory exists and is writable",
                code: ExitCodes.ioError)
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed && !isStandardOutput { unlink(temporaryPath) }
    }

    /// The directory (`.` when the path names none) and the file name of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// An existing path that is not a regular file (a device, a link, a directory, a FIFO)
    /// is never replaced: the rename would turn it into a file.
    static func refuseNonRegular(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFDIR: kind = "a directory"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFIFO: kind = "a FIFO"
        default: kind = "not a regular file"
        }
        throw fail(
            "--out \(path) is \(kind); name a regular file (or - for standard output, where the format allows it)",
            code: ExitCodes.usage)
    }

    /// Removes the `.NAME.partial-PID` files of exports to `name` that were killed: those
    /// whose process no longer runs.
    static func removeStalePartials(in directory: String, name: String) {
        let prefix = ".\(name).partial-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + entry) }
        }
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    private func flush() throws {
        let failed = buffer.withUnsafeBytes {
            isStandardOutput ? CommandStreams.current.write($0, to: .output) : SystemIO.writeAll(fd, $0)
        }
        if let failed {
            let cause = failed == 0 ? "nothing was written" : String(cString: strerror(failed))
            throw fail("\(path): cannot write (\(cause))", code: ExitCodes.ioError)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Syncs the file and renames it over `path`.
    func commit() throws {
        try flush()
        if isStandardOutput {
            committed = true
            return
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            throw fail("\(path): cannot sync (\(String(cString: strerror(errno))))", code: ExitCodes.ioError)
        }
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            throw fail(
                "\(path): cannot rename into place (\(String(cString: strerror(errno))))", code: ExitCodes.ioError)
        }
        committed = true
    }
}

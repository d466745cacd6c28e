import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole or not at all: the bytes go to a temporary file beside it, which
/// is synced and renamed over the path at `commit()`; one that is never committed (a failed
/// or killed export) is removed, so no reader ever sees half a file.
final class OutputFile {
    let path: String
    let temporaryPath: String
    private var fd: Int32
    private var buffer = [UInt8]()
    private var committed = false

    /// Creates the temporary file beside `path` (exit 74 when the directory cannot take it).
    init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        temporaryPath =
            (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).partial-\(getpid())"
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
        if !committed { unlink(temporaryPath) }
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw fail("\(path): cannot write (\(String(cString: strerror(errno))))", code: ExitCodes.ioError)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Syncs the file and renames it over `path`.
    func commit() throws {
        try flush()
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

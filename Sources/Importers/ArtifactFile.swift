import Crypto
import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// An artifact's bytes and identity, read once.
struct ArtifactFile {
    /// The most bytes an artifact file may have.
    static let maximumBytes = 1 << 30

    var bytes: [UInt8]
    var sha256: String
    /// The file's modification time, to the nanosecond the file system keeps (truncated to
    /// the microsecond).
    var modified: Int64

    /// An artifact already in memory (an archive member): its bytes, hashed here, and its
    /// modification time.
    init(bytes: [UInt8], modified: Int64) {
        self.bytes = bytes
        self.modified = modified
        self.sha256 = Self.hex(SHA256.hash(data: bytes))
    }

    /// Reads `path` whole.
    /// - Throws: `ImportError` when the file cannot be read or exceeds `maximumBytes`.
    init(path: String) throws(ImportError) {
        // Opened without waiting (a FIFO has no writer to wait for), then looked at through
        // the open file itself: a link is followed to what it names, and only a regular
        // file is read, its size the file's own.
        let fd = try Self.openForReading(path)
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw ImportError(
                path: path, message: "is not a regular file (a FIFO, a device or a socket); only regular files are read"
            )
        }
        let size = Int(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000 + Int64(st.st_mtim.tv_nsec / 1_000)
        guard size <= Self.maximumBytes else {
            throw ImportError(
                path: path,
                message: "is \(size) bytes; the limit for one artifact file is \(Self.maximumBytes) bytes (1 GiB)")
        }
        var failure: Int32 = 0
        bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while count < size {
                let n = SystemIO.read(fd, into: buffer.baseAddress! + count, count: size - count)
                if n <= 0 {
                    failure = n < 0 ? errno : 0
                    break
                }
                count += n
            }
        }
        // One more byte means the file grew while it was read.
        var extra: UInt8 = 0
        if failure == 0 && bytes.count == size && read(fd, &extra, 1) > 0 {
            throw ImportError(
                path: path,
                message:
                    "changed while it was being read (it grew past \(size) bytes); import it when nothing writes to it")
        }
        guard failure == 0, bytes.count == size else {
            throw ImportError(
                path: path,
                message: failure != 0
                    ? "cannot be read: \(String(cString: strerror(failure)))"
                    : "shrank while it was being read (\(bytes.count) of \(size) bytes)")
        }
        sha256 = Self.hex(SHA256.hash(data: bytes))
    }

    /// `path` opened for reading, without waiting (a FIFO has no writer to wait for).
    private static func openForReading(_ path: String) throws(ImportError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            throw ImportError(
                path: path,
                message:
                    "cannot be opened for reading (\(String(cString: strerror(errno)))); check the path and its permissions"
            )
        }
        return fd
    }

    /// Checks that `path` names a regular file (a link followed) within the limit for a
    /// database, as `sha256(path:)` requires.
    static func checkHashable(path: String) throws(ImportError) {
        // Only a regular file (a link followed), and no more than the limit: a device such
        // as /dev/zero never ends.
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw ImportError(
                path: path,
                message:
                    "cannot be opened for reading (\(String(cString: strerror(errno)))); check the path and its permissions"
            )
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw ImportError(
                path: path, message: "is not a regular file (a FIFO, a device or a socket); only regular files are read"
            )
        }
        guard Int(st.st_size) <= maximumBytes * 64 else {
            throw ImportError(
                path: path,
                message: "is \(st.st_size) bytes; the limit for one database is \(maximumBytes * 64) bytes (64 GiB)")
        }
    }

    /// The SHA-256 of a file, streamed (for databases, whose bytes are read by SQLite).
    static func sha256(path: String) throws(ImportError) -> String {
        try checkHashable(path: path)
        let fd = try openForReading(path)
        defer { close(fd) }
        var hasher = SHA256()
        // One buffer, read into again and again: its pages stay in the cache.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let n = SystemIO.read(fd, into: buffer.baseAddress!, count: buffer.count)
            if n == 0 { break }
            guard n > 0 else {
                throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return hex(hasher.finalize())
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An artifact that cannot be imported, naming the file and, where it applies, the offset.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong and what to do.
    public var message: String
    /// Whether the command line asked for something impossible (a path outside `--root`),
    /// rather than the file failing.
    public var isUsage = false
    /// Whether the file's own content is malformed or hostile (exit 65), rather than
    /// unreadable (exit 74).
    public var isMalformed = false

    /// Creates an error.
    public init(path: String, message: String, isUsage: Bool = false, isMalformed: Bool = false) {
        self.path = path
        self.message = message
        self.isUsage = isUsage
        self.isMalformed = isMalformed
    }

    public var description: String { "\(path): \(message)" }
}

import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// Whether `path` names a regular file (following links); false when it cannot be looked at.
package func isRegularFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
}

/// Why an input could not be spooled, as the command reports it.
package struct InputSpoolError: Error {
    /// What went wrong, and so which exit code the command gives.
    package enum Kind: Sendable {
        /// The input cannot be read (exit 74).
        case unreadable
        /// The input is a directory (exit 64).
        case directory
        /// A line is longer than the contract allows (exit 65).
        case lineTooLong
    }

    package let kind: Kind
    package let message: String
}

/// Copies of the inputs that are not regular files, each read exactly once.
package struct InputSpools {
    let directory: String
    /// Spooled inputs by device and inode (standard input under `-`), so that a FIFO named
    /// twice is read once.
    private var copies: [String: String] = [:]

    package init() throws {
        directory = try TemporaryFiles.makeDirectory("input")
    }

    /// The private copy of `name` (`-` for standard input), made on first use.
    package mutating func spool(_ name: String) throws -> String {
        var st = stat()
        let key: String
        if name == "-" {
            key = "-"
        } else {
            guard stat(name, &st) == 0 else {
                throw InputSpoolError(
                    kind: .unreadable, message: "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            guard (st.st_mode & S_IFMT) != S_IFDIR else {
                throw InputSpoolError(kind: .directory, message: "\(name) is a directory; name the NDJSON files in it")
            }
            key = "\(st.st_dev):\(st.st_ino)"
        }
        if let done = copies[key] { return done }
        let fd = name == "-" ? 0 : open(name, O_RDONLY)
        guard fd >= 0 else {
            throw InputSpoolError(
                kind: .unreadable, message: "cannot read \(name): \(String(cString: strerror(errno)))")
        }
        defer { if fd != 0 { close(fd) } }
        let path = directory + "/input-\(copies.count)"
        try copy(from: fd, name: name == "-" ? "standard input" : name, to: path)
        copies[key] = path
        return path
    }

    /// Copies until the end of input. A line longer than the contract's 8 MiB stops the copy
    /// (65), so that an endless input without line breaks (`/dev/zero`) cannot fill the disk.
    private func copy(from fd: Int32, name: String, to path: String) throws {
        let out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard out >= 0 else {
            throw LedgerError(.storage, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var lineBytes = 0
        var line = 1
        while true {
            let n = buffer.withUnsafeMutableBytes { SystemIO.read(fd, into: $0.baseAddress!, count: $0.count) }
            if n < 0 {
                throw InputSpoolError(
                    kind: .unreadable, message: "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            for k in 0..<n {
                if buffer[k] == 0x0A {
                    lineBytes = 0
                    line += 1
                } else {
                    lineBytes += 1
                }
            }
            if lineBytes > 8 << 20 {
                throw InputSpoolError(
                    kind: .lineTooLong,
                    message: "\(name):\(line): the line is longer than 8 MiB (the contract's limit); nothing was stored"
                )
            }
            if let failure = buffer.withUnsafeBytes({
                SystemIO.writeAll(out, UnsafeRawBufferPointer(rebasing: $0[0..<n]))
            }) {
                throw LedgerError(.storage, "cannot copy \(name) to \(path): \(String(cString: strerror(failure)))")
            }
        }
    }

    /// Removes the copies.
    package func remove() { TemporaryFiles.remove(directory) }
}

#if canImport(Glibc)
import Glibc
#endif

/// Reads a file line by line through one large buffer, without copying lines.
///
/// Each line is handed to the caller as a buffer valid only during the callback, with
/// its 1-based number and byte offset in the file.
struct LineReader {
    let path: String
    var chunkSize = 4 << 20
    /// Lines longer than this are reported to `onOverlong` and skipped.
    var maximumLine = (8 << 20) + 2

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Calls `body(lineNumber, offset, bytes)` for every line; `body` returns false to stop.
    func forEachLine(
        onOverlong: (Int, Int) throws -> Void = { _, _ in },
        _ body: (Int, Int, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0
        var start = 0
        var fileOffset = 0 // file offset of buffer[0]
        var lineNumber = 0
        var skipping = false
        var eof = false
        while true {
            // Hand out every complete line in the buffer.
            var stop = false
            try buffer.withUnsafeBytes { raw in
                var i = start
                while i < filled {
                    guard let nl = memchr(raw.baseAddress! + i, 0x0A, filled - i) else { break }
                    let end = raw.baseAddress!.distance(to: UnsafeRawPointer(nl))
                    lineNumber += 1
                    if skipping {
                        skipping = false
                    } else if !(try body(lineNumber, fileOffset + start, UnsafeRawBufferPointer(rebasing: raw[start..<end]))) {
                        stop = true
                        return
                    }
                    start = end + 1
                    i = start
                }
            }
            if stop { return }
            if eof {
                if start < filled && !skipping {
                    lineNumber += 1
                    let last = buffer.withUnsafeBytes { raw in UnsafeRawBufferPointer(rebasing: raw[start..<filled]) }
                    _ = try buffer.withUnsafeBytes { raw in
                        try body(lineNumber, fileOffset + start, UnsafeRawBufferPointer(rebasing: raw[start..<filled]))
                    }
                    _ = last
                }
                return
            }
            // Move the partial line to the front, growing the buffer for long lines.
            let partial = filled - start
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, partial)
                }
                fileOffset += start
                start = 0
                filled = partial
            }
            if filled == buffer.count {
                if buffer.count >= maximumLine {
                    try onOverlong(lineNumber + 1, fileOffset)
                    skipping = true
                    fileOffset += filled
                    filled = 0
                } else {
                    buffer.append(contentsOf: [UInt8](repeating: 0, count: min(buffer.count, maximumLine - buffer.count)))
                }
            }
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + filled, raw.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { filled += n }
        }
    }
}

import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file line by line through one large buffer, without copying lines.
///
/// Each line is handed to the caller as a buffer valid only during the callback, with
/// its 1-based number and byte offset in the file.
struct LineReader: Sendable {
    let path: String
    /// The byte range to read: it must start at a line's start; the last line read is
    /// the one that starts before `range.upperBound`.
    var range: Range<Int> = 0..<Int.max
    /// The number of the line at `range.lowerBound`, minus one.
    var linesBefore = 0
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
        var fileOffset = range.lowerBound // file offset of buffer[0]
        var lineNumber = linesBefore
        if range.lowerBound > 0 { lseek(fd, off_t(range.lowerBound), SEEK_SET) }
        var skipping = false
        var eof = false
        while true {
            // Hand out every complete line in the buffer.
            var stop = false
            try buffer.withUnsafeBytes { raw in
                var i = start
                while i < filled {
                    if fileOffset + start >= range.upperBound {
                        stop = true
                        return
                    }
                    guard let nl = memchr(raw.baseAddress! + i, 0x0A, filled - i) else { break }
                    let end = raw.baseAddress!.distance(to: UnsafeRawPointer(nl))
                    lineNumber += 1
                    if skipping {
                        skipping = false
                    } else if !(try body(
                        lineNumber, fileOffset + start,
                        LineReader.withoutMark(
                            UnsafeRawBufferPointer(rebasing: raw[start..<end]), at: fileOffset + start)))
                    {
                        stop = true
                        return
                    }
                    start = end + 1
                    i = start
                }
            }
            if stop { return }
            if eof {
                if start < filled && !skipping && fileOffset + start < range.upperBound {
                    lineNumber += 1
                    _ = try buffer.withUnsafeBytes { raw in
                        try body(
                            lineNumber, fileOffset + start,
                            LineReader.withoutMark(
                                UnsafeRawBufferPointer(rebasing: raw[start..<filled]), at: fileOffset + start))
                    }
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
                    // One over-long line is one problem, however many buffers it fills.
                    if !skipping { try onOverlong(lineNumber + 1, fileOffset) }
                    skipping = true
                    fileOffset += filled
                    filled = 0
                } else {
                    buffer.append(
                        contentsOf: [UInt8](repeating: 0, count: min(buffer.count, maximumLine - buffer.count)))
                }
            }
            let n = buffer.withUnsafeMutableBytes { raw in
                SystemIO.read(fd, into: raw.baseAddress! + filled, count: raw.count - filled)
            }
            if n < 0 {
                throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { filled += n }
        }
    }
}

extension LineReader {
    /// The line without a UTF-8 byte order mark when it is the file's first: editors on
    /// some systems begin a text file with one (docs/events.md).
    static func withoutMark(_ line: UnsafeRawBufferPointer, at offset: Int) -> UnsafeRawBufferPointer {
        guard offset == 0, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeRawBufferPointer(rebasing: line[3...])
    }

    /// Splits a file into `parts` ranges that start at line starts, with the number of
    /// lines before each, for reading in parallel.
    ///
    /// With `alignLines`, each cut is moved so that the lines before it are a multiple of
    /// that number (so that batches of that many lines do not change at the cuts).
    static func split(_ path: String, parts: Int, alignLines: Int = 1) throws -> [LineReader] {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let size = Int(st.st_size)
        guard parts > 1, size >= 1 << 20 else { return [LineReader(path: path)] }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bounds = [0]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for k in 1..<parts {
            // Move each cut just past the next newline.
            var at = size * k / parts
            var found = false
            while !found && at < size {
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(at)) }
                if n <= 0 { break }
                if let i = buffer[0..<n].firstIndex(of: 0x0A) {
                    at += i + 1
                    found = true
                } else {
                    at += n
                }
            }
            if found && at > bounds.last! && at < size { bounds.append(at) }
        }
        bounds.append(size)
        // Count the lines before each cut, moving the cut forward to align them.
        var readers = [LineReader]()
        var lines = 0
        var offset = 0
        var starts = [(0, 0)]
        for k in 1..<bounds.count - 1 {
            var cut = bounds[k]
            while offset < cut || lines % alignLines != 0 {
                if offset >= size { break }
                let limit = offset < cut ? cut - offset : buffer.count
                let n = buffer.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress!, min($0.count, limit), off_t(offset))
                }
                if n <= 0 { break }
                if offset >= cut {
                    // Past the cut: stop at the newline that completes an aligned count.
                    var i = 0
                    while i < n && lines % alignLines != 0 {
                        if buffer[i] == 0x0A { lines += 1 }
                        i += 1
                    }
                    offset += i
                    cut = offset
                } else {
                    lines += buffer[0..<n].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
                    offset += n
                }
            }
            if offset > starts.last!.0 && offset < size { starts.append((offset, lines)) }
        }
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1].0 : size
            readers.append(LineReader(path: path, range: start.0..<end, linesBefore: start.1))
        }
        return readers
    }
}

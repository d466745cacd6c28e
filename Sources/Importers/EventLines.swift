import Foundation
public import RecordFormat
public import SmartStack

#if canImport(Glibc)
    import Glibc
#endif

/// The events an importer yields, kept as their canonical NDJSON lines: in memory up to
/// `memoryLimit` bytes, the rest in an unlinked temporary file. A file of any size is held
/// in about that much memory until it is stored, where it is decoded again chunk by chunk.
public struct EventLines: Sendable {
    /// How many events.
    public private(set) var count = 0
    /// The earliest and latest event times.
    public private(set) var firstTime: Timestamp?
    public private(set) var lastTime: Timestamp?
    /// Why the events could not be kept (the temporary file could not be written); nil
    /// when they all are.
    public private(set) var failure: String?
    private var memory: [UInt8] = []
    private var spill: SpillFile?

    /// Whether some lines went to the temporary file.
    public var isSpilled: Bool { spill != nil }

    /// Bytes held in memory before the lines go to the temporary file.
    static let memoryLimit = 8 << 20

    /// No events.
    public init() {}

    /// `events`, written in canonical form.
    public init(_ events: [Event]) {
        var w = CanonicalWriter(capacity: 1024)
        for event in events {
            w.bytes.removeAll(keepingCapacity: true)
            event.writeCanonical(&w)
            w.bytes.withUnsafeBytes { append($0, time: event.envelope.time) }
        }
    }

    /// Appends one canonical line (without its newline) of an event at `time`.
    mutating func append(_ line: UnsafeRawBufferPointer, time: Timestamp) {
        count += 1
        if firstTime.map({ time < $0 }) ?? true { firstTime = time }
        if lastTime.map({ time > $0 }) ?? true { lastTime = time }
        memory.append(contentsOf: line)
        memory.append(0x0A)
        if memory.count >= Self.memoryLimit { spillMemory() }
    }

    /// Appends `other`'s lines after these.
    public mutating func append(contentsOf other: EventLines) {
        if let failure = other.failure { self.failure = self.failure ?? failure }
        count += other.count
        do {
            try other.forEachBlock { block in
                memory.append(contentsOf: block)
                if memory.count >= Self.memoryLimit { spillMemory() }
            }
        } catch {
            failure = failure ?? "cannot read the spooled events: \(error)"
        }
        for time in [other.firstTime, other.lastTime].compactMap({ $0 }) {
            if firstTime.map({ time < $0 }) ?? true { firstTime = time }
            if lastTime.map({ time > $0 }) ?? true { lastTime = time }
        }
    }

    private mutating func spillMemory() {
        do {
            if spill == nil { spill = try SpillFile() }
            try spill?.write(memory)
            memory.removeAll(keepingCapacity: true)
        } catch {
            failure = failure ?? "\(error)"
        }
    }

    /// Calls `body` with the lines in order, in blocks that end at a line's end.
    private func forEachBlock(_ body: ([UInt8]) throws -> Void) throws {
        if let spill { try spill.forEachBlock(body) }
        if !memory.isEmpty { try body(memory) }
    }

    /// Decodes the events again, in order, handing them over `chunkSize` at a time.
    public func forEachChunk(_ chunkSize: Int = 4096, _ body: ([Event]) throws -> Void) throws {
        var decoder = EventDecoder(sharingStrings: false)
        var chunk = [Event]()
        chunk.reserveCapacity(chunkSize)
        try forEachBlock { block in
            try block.withUnsafeBytes { raw in
                var start = 0
                for i in 0..<raw.count where raw[i] == 0x0A {
                    chunk.append(try decoder.decode(line: UnsafeRawBufferPointer(rebasing: raw[start..<i])))
                    start = i + 1
                    if chunk.count >= chunkSize {
                        try body(chunk)
                        chunk.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !chunk.isEmpty { try body(chunk) }
    }

    /// Every event, decoded (for a small file: a layout, a device's version).
    public var events: [Event] {
        var all = [Event]()
        try? forEachChunk { all += $0 }
        return all
    }
}

/// An unlinked temporary file that lines spill to: it disappears when closed, or when the
/// process ends however it ends. One owner appends to it, then reads it.
final class SpillFile: @unchecked Sendable {
    private let fd: Int32
    private var size = 0

    init() throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/stackledger-import-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ImportError(
                path: directory,
                message:
                    "cannot create a temporary file for the events (\(String(cString: strerror(errno)))); set TMPDIR to a writable directory"
            )
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + offset, $0.count - offset, off_t(size + offset))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ImportError(
                    path: "temporary file", message: "cannot spool the events: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        size += bytes.count
    }

    /// Reads the file in blocks of about 1 MiB, each ending at a newline.
    func forEachBlock(_ body: ([UInt8]) throws -> Void) throws {
        var offset = 0
        var carry = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while offset < size {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress!, min($0.count, size - offset), off_t(offset))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ImportError(
                    path: "temporary file",
                    message: "cannot read the spooled events: \(String(cString: strerror(errno)))")
            }
            offset += n
            carry.append(contentsOf: buffer[0..<n])
            guard let last = carry.lastIndex(of: 0x0A) else { continue }
            try body(Array(carry[...last]))
            carry.removeFirst(last + 1)
        }
        if !carry.isEmpty { try body(carry) }
    }
}

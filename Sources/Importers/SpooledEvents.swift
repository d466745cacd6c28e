import Foundation
public import Ledger
public import RecordFormat
public import SmartStack

#if canImport(Glibc)
    import Glibc
#endif

/// The events an importer yields, encoded for the store as they come: batches prepared by
/// a `BulkPreparation`, held as they are up to `memoryLimit` bytes, the rest serialized to
/// an unlinked temporary file. A file of any size is held in about that much memory until
/// it is stored, and storing it copies its records without decoding or encoding them again.
public struct SpooledEvents: Sendable {
    /// How many events.
    public private(set) var count = 0
    /// The earliest and latest event times.
    public private(set) var firstTime: Timestamp?
    public private(set) var lastTime: Timestamp?
    /// Why the events could not be kept (the temporary file could not be written); nil
    /// when they all are.
    public private(set) var failure: String?
    /// The stacks the events create, each as its device and id (`Event.forEachCreatedStack`).
    public private(set) var createdStacks = Set<StackName>()
    /// The preparation whose provisional string ids the batches use.
    public let preparation: BulkPreparation
    /// The batches held in memory, after those in the temporary file.
    private var memory: [PreparedBatch] = []
    /// About their bytes.
    private var memoryBytes = 0
    private var spill: SpillFile?

    /// About the bytes of the batches.
    public private(set) var bytes = 0

    /// Whether some batches went to the temporary file.
    public var isSpilled: Bool { spill != nil }

    /// Bytes held in memory before the batches go to the temporary file.
    static let memoryLimit = 4 << 20

    /// Where the batches go instead, when the file is committed while it is read.
    let feed: BatchFeed?

    /// No events, to be prepared by `preparation`.
    public init(preparation: BulkPreparation = BulkPreparation()) {
        self.preparation = preparation
        self.feed = nil
    }

    /// No events, to be prepared by `preparation` and published to `feed` as they come.
    init(preparation: BulkPreparation, feed: BatchFeed?) {
        self.preparation = preparation
        self.feed = feed
    }

    /// `events`, prepared by `preparation`.
    public init(_ events: [Event], preparation: BulkPreparation = BulkPreparation()) {
        self.init(preparation: preparation)
        if !events.isEmpty { append(events, worker: preparation.makeWorker()) }
    }

    /// Prepares `events` with `worker` (one of this preparation's) and keeps them after
    /// those held.
    public mutating func append(_ events: [Event], worker: BulkPreparation.Worker) {
        guard !events.isEmpty else { return }
        for event in events {
            let time = event.envelope.time
            if firstTime.map({ time < $0 }) ?? true { firstTime = time }
            if lastTime.map({ time > $0 }) ?? true { lastTime = time }
            event.forEachCreatedStack { createdStacks.insert(StackName(device: event.envelope.device, stack: $0)) }
        }
        count += events.count
        appendBatch(preparation.prepare(events, worker: worker))
    }

    private mutating func appendBatch(_ batch: PreparedBatch) {
        let size = batch.estimatedBytes
        bytes += size
        if let feed {
            do { try feed.publish(batch) } catch { failure = failure ?? "\(error)" }
            return
        }
        // The batches held never pass the limit (but for one larger batch).
        if !memory.isEmpty && memoryBytes + size > Self.memoryLimit { spillMemory() }
        memory.append(batch)
        memoryBytes += size
    }

    /// Appends `other`'s events after these; prepared again when another preparation
    /// made them.
    public mutating func append(contentsOf other: SpooledEvents) {
        if let failure = other.failure { self.failure = self.failure ?? failure }
        createdStacks.formUnion(other.createdStacks)
        guard other.preparation === preparation else {
            do {
                let worker = preparation.makeWorker()
                try other.forEachBatch { batch in
                    append(try batch.events(preparedBy: other.preparation) { try Event(record: $0) }, worker: worker)
                }
            } catch {
                failure = failure ?? "cannot read the spooled events: \(error)"
            }
            return
        }
        count += other.count
        do {
            // Batches in memory are handed over as they are, not copied.
            if let spill = other.spill { try spill.forEachFrame { appendBatch(try Self.batch($0)) } }
            for batch in other.memory { appendBatch(batch) }
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
            for batch in memory {
                let frame = batch.serialized()
                try spill?.write(withUnsafeBytes(of: UInt64(frame.count).littleEndian) { Array($0) })
                try spill?.write(frame)
            }
            memory.removeAll(keepingCapacity: true)
            memoryBytes = 0
        } catch {
            failure = failure ?? "\(error)"
        }
    }

    /// Why the spooled batches could not be read back.
    public struct ReadError: Error {
        /// What failed.
        public var message: String
    }

    /// Hands over the prepared batches, in order. What `body` throws is rethrown as it is;
    /// a batch that cannot be read back throws `ReadError`.
    public func forEachBatch(_ body: (PreparedBatch) throws -> Void) throws {
        if let feed { return try feed.forEachBatch(body) }
        do {
            try spill?.forEachFrame { frame in try body(try Self.batch(frame)) }
        } catch let error as ImportError {
            throw ReadError(message: error.message)
        }
        for batch in memory { try body(batch) }
    }

    /// The batch a frame holds.
    static func batch(_ frame: UnsafeRawBufferPointer) throws(ReadError) -> PreparedBatch {
        do {
            return try PreparedBatch.deserialized(frame) { _ in
                throw LedgerError(.storage, "a spooled batch cannot be encoded again")
            }
        } catch {
            throw ReadError(message: "a spooled batch cannot be read back: \(error)")
        }
    }

    /// Every event, decoded again (for a small file: a layout, a device's version).
    public var events: [Event] {
        var all = [Event]()
        try? forEachBatch { all += try $0.events(preparedBy: preparation) { try Event(record: $0) } }
        return all
    }
}

/// An unlinked temporary file that prepared batches spill to: it disappears when closed, or when the
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

    /// Reads the file back frame by frame (an 8-byte length, then that many bytes).
    func forEachFrame(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var offset = 0
        var buffer = [UInt8]()
        while offset < size {
            var header = [UInt8](repeating: 0, count: 8)
            try read(into: &header, at: offset)
            let length = Int(UInt64(littleEndian: header.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
            guard length >= 0, offset + 8 + length <= size else {
                throw ImportError(path: "temporary file", message: "the spooled events end early")
            }
            if buffer.count < length { buffer = [UInt8](repeating: 0, count: length) }
            try read(into: &buffer, count: length, at: offset + 8)
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            offset += 8 + length
        }
    }

    func read(into buffer: inout [UInt8], count: Int? = nil, at start: Int) throws {
        let total = count ?? buffer.count
        var done = 0
        while done < total {
            let n = buffer.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, total - done, off_t(start + done))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ImportError(
                    path: "temporary file",
                    message: "cannot read the spooled events: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}

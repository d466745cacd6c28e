import Foundation
import Ledger

/// The prepared batches of one file, shared by the thread that reads the file and the one
/// that commits it: the commit stores the first batches while the rest are still read.
/// Every batch is kept (in memory up to a limit, the rest in an unlinked temporary file),
/// so that a commit run again reads them again from the first.
final class BatchFeed: @unchecked Sendable {
    /// How the reading ended.
    enum End: Equatable {
        /// Every batch of the file was published.
        case complete
        /// The file failed: nothing of it may be stored.
        case failed
        /// The file's events did not come through the feed: store them as read.
        case bypassed
    }

    /// What a commit reading the feed throws when the file cannot be stored from it.
    struct Aborted: Error {}

    /// A batch held as it is, or where the temporary file holds it serialized.
    private struct Frame {
        var offset: Int
        var length: Int
        var batch: PreparedBatch?
    }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var frames: [Frame] = []
    private var inMemory = 0
    private var spill: SpillFile?
    /// Bytes of batches moved to the temporary file.
    private(set) var spilled = 0
    private var end: End?

    /// Bytes of batches kept in memory before older ones go to the temporary file.
    static let memoryLimit = 4 << 20

    /// How the reading ended; nil while it goes on.
    var outcome: End? {
        condition.lock()
        defer { condition.unlock() }
        return end
    }

    /// Adds a batch after those published.
    func publish(_ batch: PreparedBatch) throws {
        condition.lock()
        defer { condition.unlock() }
        frames.append(Frame(offset: 0, length: 0, batch: batch))
        inMemory += batch.estimatedBytes
        if inMemory > Self.memoryLimit { try spillOldest() }
        condition.broadcast()
    }

    /// Moves every batch held in memory but the newest to the temporary file, serialized.
    private func spillOldest() throws {
        if spill == nil { spill = try SpillFile() }
        for k in frames.indices.dropLast() {
            guard let batch = frames[k].batch else { continue }
            let bytes = batch.serialized()
            try spill?.write(bytes)
            frames[k] = Frame(offset: spilled, length: bytes.count, batch: nil)
            spilled += bytes.count
            inMemory -= batch.estimatedBytes
        }
    }

    /// Marks the end of the file from what reading it gave.
    func finish(after result: ArtifactImport) {
        let failed = result.report.error != nil || result.spooled.failure != nil
        finish(failed ? .failed : result.spooled.feed === self ? .complete : .bypassed)
    }

    /// Marks the end of the file.
    func finish(_ end: End) {
        condition.lock()
        defer { condition.unlock() }
        if self.end == nil { self.end = end }
        condition.broadcast()
    }

    /// Calls `body` with each batch from the first, in order, waiting for those not yet
    /// published, until the file is complete.
    /// - Throws: `Aborted` when the file failed or bypassed the feed; what `body` throws.
    func forEachBatch(_ body: (PreparedBatch) throws -> Void) throws {
        var k = 0
        var buffer = [UInt8]()
        while true {
            condition.lock()
            while k == frames.count && end == nil { condition.wait() }
            let frame: Frame? = k < frames.count ? frames[k] : nil
            let ending = end
            let file = spill
            condition.unlock()
            if ending == .failed || ending == .bypassed { throw Aborted() }
            guard let frame else { return }
            let batch: PreparedBatch
            if let held = frame.batch {
                batch = held
            } else {
                guard let file else { throw Aborted() }
                if buffer.count < frame.length { buffer = [UInt8](repeating: 0, count: frame.length) }
                do {
                    try file.read(into: &buffer, count: frame.length, at: frame.offset)
                } catch let error as ImportError {
                    throw SpooledEvents.ReadError(message: error.message)
                }
                batch = try buffer.withUnsafeBytes {
                    try SpooledEvents.batch(UnsafeRawBufferPointer(rebasing: $0[0..<frame.length]))
                }
            }
            try body(batch)
            k += 1
        }
    }
}

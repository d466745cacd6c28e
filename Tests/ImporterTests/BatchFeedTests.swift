import Ledger
import RecordFormat
import SmartStack
import Testing

@testable import Importers

/// The prepared batches of a file committed while it is read.
@Suite("Batch feed")
struct BatchFeedTests {
    /// A batch of 2,048 `app.foreground` events, the `n`th.
    static func batch(_ n: Int, _ preparation: BulkPreparation, _ worker: BulkPreparation.Worker) -> PreparedBatch {
        let events = (0..<2_048).map { i in
            Event(
                time: Timestamp(microseconds: Int64(n * 2_048 + i) * 1_000_000, offsetMinutes: 0),
                app: "com.example.app\(i % 7)", id: "batch-\(n)/event-\(i)",
                body: .appForeground(AppForeground(duration: Double(i))))
        }
        return preparation.prepare(events, worker: worker)
    }

    @Test(
        "batches published past the memory limit go to the temporary file and come back whole and in order, on every read"
    )
    func spillsAndReadsBack() throws {
        let preparation = BulkPreparation()
        let worker = preparation.makeWorker()
        let feed = BatchFeed()
        var expected = [[UInt8]]()
        for n in 0..<24 {
            let batch = Self.batch(n, preparation, worker)
            expected.append(batch.serialized())
            try feed.publish(batch)
        }
        feed.finish(.complete)
        #expect(feed.spilled > 0)
        for _ in 0..<2 {
            var read = [[UInt8]]()
            try feed.forEachBatch { read.append($0.serialized()) }
            #expect(read == expected)
        }
    }

    @Test("a file that failed as it was read hands its commit nothing, not even the batches published before")
    func failedFileStopsTheReader() throws {
        let preparation = BulkPreparation()
        let worker = preparation.makeWorker()
        let feed = BatchFeed()
        try feed.publish(Self.batch(0, preparation, worker))
        feed.finish(.failed)
        var read = 0
        #expect(throws: BatchFeed.Aborted.self) { try feed.forEachBatch { _ in read += 1 } }
        #expect(read == 0)
    }
}

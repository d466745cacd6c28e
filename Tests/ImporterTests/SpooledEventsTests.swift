import Importers
import Ledger
import RecordFormat
import SmartStack
import Testing

/// `SpooledEvents`: an importer's events prepared for the store, spilled past 4 MiB to a
/// temporary file, and handed back in order when stored.
@Suite("Spooled events")
struct SpooledEventsTests {
    /// `n` events whose lines are about 400 bytes each, numbered by their duration.
    func events(_ n: Int, app: String = "com.example.app") -> [Event] {
        let padding = String(repeating: "x", count: 300)
        return (0..<n).map { i in
            var decoder = EventDecoder()
            return try! decoder.decode(
                #"{"type":"app.foreground","time":"2026-03-02T09:00:00Z","app":"\#(app)","id":"\#(padding)-\#(i)","duration":\#(i)}"#
            )
        }
    }

    @Test("past the memory limit the batches spill to a file and come back whole, in order")
    func spillsAndReadsBack() throws {
        let input = events(30_000)
        let bulk = BulkPreparation()
        let worker = bulk.makeWorker()
        var spooled = SpooledEvents(preparation: bulk)
        for start in stride(from: 0, to: input.count, by: 4096) {
            spooled.append(Array(input[start..<min(input.count, start + 4096)]), worker: worker)
        }
        #expect(spooled.count == 30_000 && spooled.failure == nil && spooled.isSpilled)
        var sizes = [Int]()
        var back = [Event]()
        try spooled.forEachBatch { batch in
            sizes.append(batch.count)
            back += try batch.events(preparedBy: bulk) { try Event(record: $0) }
        }
        #expect(back == input)
        #expect(sizes.count == 8 && sizes.dropLast().allSatisfy { $0 == 4096 } && sizes.last == 30_000 - 7 * 4096)
        #expect(spooled.events == input)
    }

    @Test(
        "appending another spool keeps both in order, with the earliest and latest times, whichever preparation made it"
    )
    func appendsInOrder() throws {
        let first = events(20_000, app: "com.first")
        let second = events(20_000, app: "com.second")
        let bulk = BulkPreparation()
        var spooled = SpooledEvents(first, preparation: bulk)
        spooled.append(contentsOf: SpooledEvents(second, preparation: bulk))
        spooled.append(contentsOf: SpooledEvents(Array(first.prefix(10))))
        #expect(spooled.count == 40_010 && spooled.preparation === bulk)
        #expect(spooled.events == first + second + first.prefix(10))
        #expect(spooled.firstTime == first[0].envelope.time && spooled.lastTime == first[0].envelope.time)
    }
}

import Foundation
import Ledger
import SmartStack
import Synchronization
import Testing

@Suite("Scanning on several threads")
struct ParallelScanTests {
    @Test("every record is visited once, in order within each thread, and the count returned", arguments: [1, 2, 3])
    func everyRecordOnce(threads: Int) throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        for seed in 1...3 { _ = try ledger.append(try randomEvents(700, seed: UInt64(seed))) }
        let seen = Mutex([UInt64]())
        let visited = try ledger.scanInParallel(threads: threads) { view in
            _ = try Event(record: view)
            seen.withLock { $0.append(view.seq) }
        }
        #expect(visited == 2100)
        #expect(seen.withLock { $0.sorted() } == Array(1...2100))
    }

    @Test("an error from one record ends the scan and is thrown")
    func errorStops() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        _ = try ledger.append(try randomEvents(5000, seed: 4))
        struct Stop: Error {}
        let after = Atomic<Int>(0)
        #expect(throws: Stop.self) {
            try ledger.scanInParallel(threads: 2) { view in
                if view.seq == 100 { throw Stop() }
                if view.seq > 100 && view.seq <= 2500 { after.add(1, ordering: .relaxed) }
            }
        }
        // The thread that failed stopped at its record.
        #expect(after.load(ordering: .relaxed) == 0)
        #expect(try ledger.scanInParallel(threads: 2) { _ in } == 5000)
    }
}

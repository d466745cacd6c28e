import Foundation
import RecordFormat
import SmartStack
import Synchronization
import Testing

@testable import Ledger

/// `appendInOneCommit(preparedBy:)`: batches encoded while an artifact is read are stored
/// as encoded in one commit, or encoded again when another writer changed the string table.
@Suite("Prepared commits")
struct PreparedCommitTests {
    /// Random events with unique ids, split into batches of `size`.
    func batches(_ count: Int, seed: UInt64, size: Int = 250) throws -> [[Event]] {
        var events = try randomEvents(count, seed: seed)
        for i in events.indices { events[i].envelope.id = "prepared-\(seed)-\(i)" }
        return stride(from: 0, to: events.count, by: size).map { Array(events[$0..<min(events.count, $0 + size)]) }
    }

    /// Commits `batches` prepared by `bulk`; counts the events made again from records.
    func commit(_ batches: [PreparedBatch], preparedBy bulk: BulkPreparation, into ledger: Ledger) throws -> (
        AppendReceipt, decoded: Int
    ) {
        let decoded = Atomic<Int>(0)
        let decode: @Sendable (RecordView) throws -> Event = { view in
            decoded.add(1, ordering: .relaxed)
            return try Event(record: view)
        }
        let receipt = try ledger.appendInOneCommit(preparedBy: bulk, decode: decode) { store in
            for batch in batches { try store(batch) }
        }
        return (receipt, decoded.load(ordering: .relaxed))
    }

    func scanned(_ ledger: Ledger) throws -> [Event] {
        try ledger.read { r in
            var out = [Event]()
            try r.scan { view in
                out.append(try Event(record: view))
                return true
            }
            return out
        }
    }

    @Test(
        "batches prepared from the store's table are stored as prepared, in one commit, byte for byte as a plain append"
    )
    func storedAsPrepared() throws {
        let store = TemporaryStore()
        let plain = TemporaryStore()
        defer {
            store.cleanup()
            plain.cleanup()
        }
        let ledger = try store.ledger()
        let parts = try batches(1000, seed: 7)
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let prepared = parts.map { bulk.prepare($0, worker: worker) }
        let (receipt, decoded) = try commit(prepared, preparedBy: bulk, into: ledger)
        #expect(decoded == 0)
        #expect(receipt.stored == 1000 && receipt.firstSeq == 1 && receipt.lastSeq == 1000)
        #expect(try ledger.read { try $0.batches() }.count == 1)
        #expect(try scanned(ledger) == parts.flatMap { $0 })
        #expect(try ledger.verify().isIntact)

        let other = try plain.ledger()
        _ = try other.append(parts.flatMap { $0 })
        for seq in [UInt64(1), 500, 1000] {
            #expect(try Tamper(store.path).record(seq) == Tamper(plain.path).record(seq))
        }
    }

    @Test("when another writer added strings after the preparation began, every event is encoded again and stored")
    func encodedAgainAfterAnotherWriter() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let parts = try batches(600, seed: 11)
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let prepared = parts.map { bulk.prepare($0, worker: worker) }
        let foreign = try batches(50, seed: 12).flatMap { $0 }
        _ = try ledger.append(foreign)
        let (receipt, decoded) = try commit(prepared, preparedBy: bulk, into: ledger)
        #expect(decoded == 600 && receipt.stored == 600)
        #expect(try scanned(ledger) == foreign + parts.flatMap { $0 })
        #expect(try ledger.verify().isIntact)
    }

    @Test(
        "files prepared by one preparation commit one by one; a refused file defines nothing and the next still stores as prepared"
    )
    func successiveCommits() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let first = try batches(300, seed: 21)
        let second = try batches(300, seed: 22)
        let third = try batches(300, seed: 23)
        // The second file reuses an id of the first with other content.
        var clash = second
        clash[0][0].envelope.id = first[0][0].envelope.id
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let files = [first, clash, third].map { $0.map { bulk.prepare($0, worker: worker) } }
        #expect(try commit(files[0], preparedBy: bulk, into: ledger).decoded == 0)
        #expect(throws: LedgerError.self) { try commit(files[1], preparedBy: bulk, into: ledger) }
        let (receipt, decoded) = try commit(files[2], preparedBy: bulk, into: ledger)
        #expect(decoded == 0 && receipt.stored == 300)
        #expect(try scanned(ledger) == first.flatMap { $0 } + third.flatMap { $0 })
        #expect(try ledger.verify().isIntact)
    }

    @Test("a commit that outgrows the map runs again from its first batch and stores every event once")
    func outgrowsTheMap() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger(mapSize: 1 << 20)
        let parts = try batches(6000, seed: 41)
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let prepared = parts.map { bulk.prepare($0, worker: worker) }
        let handed = Atomic<Int>(0)
        let decode: @Sendable (RecordView) throws -> Event = { try Event(record: $0) }
        let receipt = try ledger.appendInOneCommit(preparedBy: bulk, decode: decode) { store in
            for batch in prepared {
                handed.add(1, ordering: .relaxed)
                try store(batch)
            }
        }
        #expect(handed.load(ordering: .relaxed) > prepared.count, "the map grew during the commit")
        #expect(receipt.stored == 6000 && receipt.duplicates == 0)
        #expect(try scanned(ledger) == parts.flatMap { $0 })
        #expect(try ledger.verify().isIntact)
    }

    @Test("room for a large commit is made in the map before it starts")
    func roomMadeFirst() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger(mapSize: 1 << 20)
        let parts = try batches(6000, seed: 42)
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let prepared = parts.map { bulk.prepare($0, worker: worker) }
        let handed = Atomic<Int>(0)
        let decode: @Sendable (RecordView) throws -> Event = { try Event(record: $0) }
        let bytes = prepared.reduce(0) { $0 + $1.serialized().count }
        let receipt = try ledger.appendInOneCommit(preparedBy: bulk, bytes: bytes, decode: decode) { store in
            for batch in prepared {
                handed.add(1, ordering: .relaxed)
                try store(batch)
            }
        }
        #expect(handed.load(ordering: .relaxed) == prepared.count)
        #expect(receipt.stored == 6000)
        #expect(try scanned(ledger) == parts.flatMap { $0 })
    }

    @Test("files committed together are each stored whole or not at all, in order, in one commit")
    func filesShareACommit() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let first = try batches(200, seed: 51)
        let second = try batches(200, seed: 52)
        let third = try batches(200, seed: 53)
        var clash = second
        clash[0][0].envelope.id = first[0][0].envelope.id
        let bulk = try BulkPreparation(ledger: ledger)
        let worker = bulk.makeWorker()
        let files = [first, clash, third].map { $0.map { bulk.prepare($0, worker: worker) } }
        let decode: @Sendable (RecordView) throws -> Event = { try Event(record: $0) }
        let outcomes = try ledger.appendEachInOneCommit(
            preparedBy: bulk, decode: decode,
            files.map { batches in { @Sendable store in for batch in batches { try store(batch) } } })
        #expect(try outcomes[0].get().stored == 200 && outcomes[2].get().stored == 200)
        #expect(throws: LedgerError.self) { try outcomes[1].get() }
        #expect(try outcomes[2].get().firstSeq == 201)
        #expect(try ledger.read { try $0.batches() }.count == 1)
        #expect(try scanned(ledger) == first.flatMap { $0 } + third.flatMap { $0 })
        #expect(try ledger.verify().isIntact)
    }

    @Test("events prepared before the store was known are encoded again into a store that has strings")
    func preparedWithoutAStore() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let earlier = try batches(40, seed: 31).flatMap { $0 }
        _ = try ledger.append(earlier)
        let bulk = BulkPreparation()
        let parts = try batches(200, seed: 32)
        let prepared = parts.map { bulk.prepare($0, worker: bulk.makeWorker()) }
        #expect(try prepared[0].events(preparedBy: bulk) { try Event(record: $0) } == parts[0])
        let (receipt, decoded) = try commit(prepared, preparedBy: bulk, into: ledger)
        #expect(decoded == 200 && receipt.stored == 200)
        #expect(try scanned(ledger) == earlier + parts.flatMap { $0 })
    }
}

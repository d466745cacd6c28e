import Foundation
import LMDBKit
import SmartStack
import StackLedgerTesting
import Synchronization
import Testing

@testable import Ledger

@Suite("Appending and reading")
struct LedgerAppendTests {
    @Test("random valid events come back equal from storage, with gapless sequence numbers")
    func binaryRoundTrip() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var all = [Event]()
        for seed in 1...6 {
            var batch = try randomEvents(300, seed: UInt64(seed))
            for i in batch.indices { batch[i].envelope.id = nil }
            let receipt = try ledger.append(batch)
            #expect(receipt.stored == batch.count)
            #expect(receipt.firstSeq == UInt64(all.count + 1))
            all += batch
        }
        var read = [Event]()
        var seqs = [UInt64]()
        try ledger.read { (r) throws in
            try r.scan { view in
                read.append(try Event(record: view))
                seqs.append(view.seq)
                return true
            }
        }
        #expect(read == all)
        #expect(seqs == Array(1...UInt64(all.count)))
        #expect(try ledger.verify().isIntact)
    }

    @Test("an event with a stored id and the same content is skipped; with other content it is refused")
    func idempotence() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var events = try randomEvents(50, seed: 3)
        for i in events.indices { events[i].envelope.id = "event-\(i)" }
        #expect(try ledger.append(events).stored == 50)
        let again = try ledger.append(events)
        #expect(again.stored == 0 && again.duplicates == 50)
        var changed = events[10]
        changed.envelope.time.microseconds += 1
        #expect(throws: LedgerError.self) { try ledger.append([events[0], changed]) }
        #expect(try ledger.read { try $0.lastSeq() } == 50)
        #expect(try ledger.verify().isIntact)
    }

    @Test("ids longer than LMDB's key limit are stored by hash")
    func longIDs() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var events = try randomEvents(2, seed: 11)
        events[0].envelope.id = String(repeating: "x", count: 4000)
        events[1].envelope.id = String(repeating: "x", count: 3999) + "y"
        #expect(try ledger.append(events).stored == 2)
        #expect(try ledger.append(events).duplicates == 2)
        #expect(try ledger.verify().isIntact)
    }

    @Test("the map grows by itself from a tiny start and nothing is lost")
    func mapGrowth() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger(mapSize: 64 << 10)
        let before = ledger.environment.info().mapSize
        for seed in 0..<10 { _ = try ledger.append(try randomEvents(500, seed: UInt64(seed + 100))) }
        #expect(ledger.environment.info().mapSize > before)
        #expect(try ledger.read { try $0.lastSeq() } == 5000)
        #expect(try ledger.verify().isIntact)
    }

    @Test("with growth off a full map fails cleanly and the store stays usable")
    func mapFullWithoutGrowth() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger(mapSize: 256 << 10, grows: false)
        var stored = 0
        var failure: LedgerError?
        for seed in 0..<50 {
            do {
                stored += try ledger.append(try randomEvents(200, seed: UInt64(seed))).stored
            } catch let e as LedgerError {
                failure = e
                break
            }
        }
        #expect(failure?.kind == .storage)
        #expect(try ledger.read { try $0.lastSeq() } == UInt64(stored))
        #expect(try ledger.verify().isIntact)
    }

    @Test("appends from many threads share commits and every event is stored once")
    func groupCommit() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let batches = try (0..<32).map {
            try randomEvents(40, seed: UInt64(1000 + $0)).map { e -> Event in
                var e = e
                e.envelope.id = nil
                return e
            }
        }
        // The first commit waits, holding the write lock, until the 31 other appends queue
        // behind it: they must then share one commit.
        let taken = Mutex(false)
        let inside = DispatchSemaphore(value: 0)
        let failures = Mutex<[String]>([])
        let committer = ledger.committer
        let path = ledger.path
        let waitInside: @Sendable (String) -> Void = { written in
            // Only this store's first transaction waits; the others pass straight through,
            // as do the stores of tests running meanwhile.
            let first =
                written == path
                && taken.withLock { t in
                    defer { t = true }
                    return !t
                }
            if first {
                inside.signal()
                var waited = 0
                while committer.waiting < 31 && waited < 30_000 {
                    usleep(1_000)
                    waited += 1
                }
            }
        }
        WriteHooks.whileInsideWrite(waitInside) {
            let leader = Thread {
                do { _ = try ledger.append(batches[0]) } catch { failures.withLock { $0.append("0: \(error)") } }
            }
            leader.start()
            inside.wait()
            // One thread each: a pool as wide as the cores would queue only a few at a time.
            let others = (1..<batches.count).map { i in
                Thread {
                    do { _ = try ledger.append(batches[i]) } catch { failures.withLock { $0.append("\(i): \(error)") } }
                }
            }
            for t in others { t.start() }
            while !leader.isFinished || others.contains(where: { !$0.isFinished }) { usleep(1_000) }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let stats = try ledger.statistics()
        #expect(stats.events == 32 * 40)
        #expect(stats.batches == 2, "the leader's commit, and one shared by the 31 appends that queued behind it")
        #expect(try ledger.verify().isIntact)
    }

    @Test("store files are readable by their owner only")
    func permissions() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        _ = try store.ledger()
        let dir = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        let data = try FileManager.default.attributesOfItem(atPath: store.path + "/data.mdb")[.posixPermissions] as? Int
        #expect(dir == 0o700)
        #expect(data == 0o600)
    }

    @Test("the (device, time) and key indices find and count events")
    func indices() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = try randomEvents(400, seed: 21)
        _ = try ledger.append(events)
        try ledger.read { (r) throws in
            let device = events[5].envelope.device
            let expected = events.enumerated().filter { $0.element.envelope.device == device }
                .sorted {
                    ($0.element.envelope.time.microseconds, $0.offset) < (
                        $1.element.envelope.time.microseconds, $1.offset
                    )
                }
                .map { UInt64($0.offset + 1) }
            #expect(try r.seqs(device: device) == expected)
            #expect(try r.eventCount(device: device) == expected.count)
            #expect(try r.eventCount(device: "no-such-device") == 0)
            let times = events.filter { $0.envelope.device == device }.map(\.envelope.time.microseconds)
            let span = try #require(try r.eventSpan(device: device))
            #expect(span.count == expected.count && span.first == times.min() && span.last == times.max())
            #expect(try r.eventSpan(device: "no-such-device") == nil)
            let app = events[7].envelope.app!
            let key = IndexKey(namespace: Event.IndexNamespace.app, value: app)
            let byApp = events.enumerated().filter { $0.element.indexKeys.contains(key) }.map { UInt64($0.offset + 1) }
            #expect(try r.seqs(indexKey: key) == byApp)
            #expect(try r.hasIndexKey(IndexKey(namespace: Event.IndexNamespace.kind, value: "no-such-kind")) == false)
        }
    }

    @Test("reading a device's records without identities gives the same events less their ids and sources")
    func readingWithoutIdentities() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = try randomEvents(400, seed: 22)
        _ = try ledger.append(events)
        #expect(events.contains { $0.envelope.id != nil } && events.contains { $0.envelope.source != nil })
        try ledger.read { (r) throws in
            for device in try r.devices() {
                var full = [Event]()
                var lean = [Event]()
                try r.forEachRecord(device: device, after: nil, throughMicros: .max) {
                    full.append(try Event(record: $0))
                    return true
                }
                try r.forEachRecord(device: device, after: nil, throughMicros: .max, identities: false) {
                    lean.append(try Event(record: $0))
                    return true
                }
                #expect(!full.isEmpty)
                #expect(lean.allSatisfy { $0.envelope.id == nil && $0.envelope.source == nil })
                for i in full.indices {
                    full[i].envelope.id = nil
                    full[i].envelope.source = nil
                }
                #expect(lean == full)
            }
        }
    }

    @Test("a device's records come back in (time, seq) order, whether they follow each other in the log or not")
    func readingRunsAndInterleavedRecords() throws {
        let store = TemporaryStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var events = try randomEvents(600, seed: 23)
        // A run of one device, then two devices taking turns, then the first device's run
        // again; in time order but for every 37th event, which comes late.
        for i in events.indices {
            events[i].envelope.device = (200..<400).contains(i) && i % 2 == 1 ? "other" : "runs"
            let second = i % 37 == 36 ? i - 30 : i
            events[i].envelope.time = Timestamp(
                microseconds: 1_780_000_000_000_000 + Int64(second) * 1_000_000,
                offsetMinutes: events[i].envelope.time.offsetMinutes)
        }
        _ = try ledger.append(events)
        try ledger.read { (r) throws in
            for device in ["runs", "other"] {
                let expected = events.enumerated().filter { $0.element.envelope.device == device }
                    .sorted {
                        ($0.element.envelope.time.microseconds, $0.offset) < (
                            $1.element.envelope.time.microseconds, $1.offset
                        )
                    }
                var seqs = [UInt64]()
                var read = [Event]()
                try r.forEachRecord(device: device, after: nil, throughMicros: .max) { view in
                    seqs.append(view.seq)
                    read.append(try Event(record: view))
                    return true
                }
                #expect(seqs == expected.map { UInt64($0.offset + 1) })
                #expect(read == expected.map(\.element))
                // From a position in the middle on.
                let middle = expected[expected.count / 2]
                var after = [UInt64]()
                try r.forEachRecord(
                    device: device, after: (middle.element.envelope.time.microseconds, UInt64(middle.offset + 1)),
                    throughMicros: .max
                ) {
                    after.append($0.seq)
                    return true
                }
                #expect(after == expected[(expected.count / 2 + 1)...].map { UInt64($0.offset + 1) })
            }
        }
    }
}

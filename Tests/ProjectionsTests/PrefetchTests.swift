import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Synchronization
import Testing

@testable import Projections

@Suite("Folds that read ahead on a thread of their own")
struct PrefetchTests {
    @Test("reading and decoding ahead changes no answer: the whole log, what-ifs, --known-at and --as-recorded-at")
    func sameAnswers() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(3_000, seed: 11)
        _ = try ledger.append(Array(events.prefix(2_000)))
        Thread.sleep(forTimeInterval: 0.01)
        let between = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        Thread.sleep(forTimeInterval: 0.01)
        _ = try ledger.append(Array(events.dropFirst(2_000)))
        let times = events.map(\.envelope.time.microseconds)
        let (first, last) = (times.min()!, times.max()!)

        // Both fold from the start; one reads every record itself, the other hands reading
        // to a thread after a few records, in small batches, across read chunks.
        let inline = Projector(ledger: ledger, policy: Policy())
        inline.useCheckpoints = false
        inline.prefetchAfter = nil
        let ahead = Projector(ledger: ledger, policy: Policy())
        ahead.useCheckpoints = false
        (ahead.prefetchAfter, ahead.prefetchBatch, ahead.chunk) = (10, 7, 50)

        let queries = [
            ProjectionQuery(),
            ProjectionQuery(without: Set(15...60).union([777, 1_500, 2_999])),
            ProjectionQuery(knownAt: Timestamp(microseconds: first + (last - first) / 2)),
            ProjectionQuery(asRecordedAt: between),
        ]
        var rng = SplitMix64(seed: 5)
        for _ in 0..<3 {
            let t = first + Int64(rng.next() % UInt64(last - first + 1))
            var seen = Set<String>()
            for q in queries {
                let expected = try rendering(inline, at: t, from: first, query: q)
                #expect(!expected.isEmpty)
                #expect(try rendering(ahead, at: t, from: first, query: q) == expected)
                seen.insert(expected)
            }
            // The views differ, so each one's events are the ones that count.
            #expect(seen.count >= 3)
        }
    }

    @Test("a fold that stops early stops the reading thread")
    func stopsEarly() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(2_000, seed: 4)
        _ = try ledger.append(events)
        let device = try Projector(ledger: ledger, policy: Policy()).devices()[0]
        do {
            let prefetch = EventPrefetch(
                ledger: ledger, device: device, after: nil, through: .max, ceiling: .max, without: [], batchSize: 16)
            let batch = try #require(try prefetch.next())
            #expect(batch.count == 16)
            #expect(batch.allSatisfy { $0.event != nil })
            // A batch comes last record first.
            #expect(zip(batch, batch.dropFirst()).allSatisfy { $0.seq > $1.seq })
            // Let the reader fill every slot ahead, then stop it and let it go: its
            // hand-off must be left as it was made.
            Thread.sleep(forTimeInterval: 0.3)
            prefetch.stop()
            // Stopped early: the reader ended having read no more than the slots ahead
            // (and the one it was filling), not the device's 125 batches; nothing more comes.
            let read = prefetch.batchesRead
            #expect(read >= 1 && read <= 1 + EventPrefetch.ahead + 1, "read \(read) batches")
            #expect(try prefetch.next() == nil)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(prefetch.batchesRead == read)
        }
    }

    @Test(
        "a fold that finds a core free midway reads ahead and writes checkpoints in the background, with the same checkpoints and state",
        arguments: [nil, Projector.defaultCheckpointShare]
    )
    func spareCoreMidway(share: Double?) throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        _ = try ledger.append(workloadEvents(4_000, seed: 8))
        let device = try Projector(ledger: ledger, policy: Policy()).devices()[0]

        func checkpoints(_ projector: Projector) throws -> (entries: [[UInt8]], state: String) {
            (projector.checkpointInterval, projector.chunk, projector.prefetchAfter) = (40, 300, nil)
            projector.checkpointShare = share
            (projector.privateStrings, projector.backgroundCheckpoints) = (true, false)
            try projector.dropCheckpoints(of: [device])
            let engine = try projector.fold(device: device, through: .max, query: ProjectionQuery(), collect: nil)
            var w = CanonicalWriter()
            ProjectionJSON.writeStacks(&w, engine.snapshot(at: Timestamp(microseconds: engine.now)).stacks)
            var entries = [[UInt8]]()
            try ledger.read { r in
                try r.derivedEntries(prefix: CheckpointKey.root) { k, v in entries.append(Array(k) + [0xFF] + Array(v))
                }
            }
            return (entries, w.text)
        }
        let alone = try checkpoints(Projector(ledger: ledger, policy: Policy()))
        // The core comes free after the fold's third stretch of 100 records.
        let asked = AskCount()
        let freed = Projector(ledger: ledger, policy: Policy())
        (freed.spareCore, freed.spareCoreStretch) = ({ asked.next() > 3 }, 100)
        let switched = try checkpoints(freed)
        #expect(asked.count > 3)
        // Spaced by their bytes, the checkpoints are fewer, and as many after the switch.
        #expect(alone.entries.count > (share == nil ? 20 : 3))
        #expect(switched.entries == alone.entries)
        #expect(switched.state == alone.state)
    }
}

extension PrefetchTests {
    @Test("a fold reports the records it has read after each stretch, then once more at its end")
    func reportsProgress() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        _ = try ledger.append(workloadEvents(3_000, seed: 12))
        let projector = Projector(ledger: ledger, policy: Policy())
        let device = try projector.devices()[0]
        let total = try ledger.read { try $0.eventCount(device: device) }
        (projector.useCheckpoints, projector.chunk, projector.prefetchAfter, projector.prefetchBatch) = (
            false, 200, 500, 50
        )
        var reports = [(records: Int, done: Bool)]()
        projector.onFoldProgress = { d, n, done in
            #expect(d == device)
            reports.append((n, done))
        }
        _ = try projector.fold(device: device, through: .max, query: ProjectionQuery(), collect: nil)
        #expect(reports.count >= total / 200)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.records <= $1.records })
        #expect(reports.dropLast().allSatisfy { !$0.done })
        #expect(reports.last?.done == true && reports.last?.records == total)
    }
}

/// Counts the times a fold asks whether a core is free.
private final class AskCount: Sendable {
    private let asked = Atomic<Int>(0)

    func next() -> Int { asked.wrappingAdd(1, ordering: .relaxed).newValue }

    var count: Int { asked.load(ordering: .relaxed) }
}

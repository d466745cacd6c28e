import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Projections

/// A store in a temporary directory.
struct ScratchStore {
    let path = NSTemporaryDirectory() + "stackledger-projection-" + UUID().uuidString
    func ledger() throws -> Ledger { try Ledger(path: path) }
    func cleanup() { try? FileManager.default.removeItem(atPath: path) }
}

/// The state of every device at `t` and the decisions of `[from, t]`, as JSON text.
func rendering(_ projector: Projector, at t: Int64, from: Int64, query: ProjectionQuery = ProjectionQuery()) throws
    -> String
{
    var w = CanonicalWriter()
    for device in try projector.devices() {
        let engine = try projector.engine(device: device, at: t, query: query)
        ProjectionJSON.writeStacks(&w, engine.snapshot(at: Timestamp(microseconds: t)).stacks)
        for d in try projector.decisions(device: device, from: from, to: t, query: query) {
            ProjectionJSON.write(&w, d)
        }
    }
    return w.text
}

func workloadEvents(_ count: Int, seed: UInt64) -> [Event] {
    var config = WorkloadGenerator.Configuration()
    config.events = count
    config.seed = seed
    config.devices = 2
    config.latePercent = 5
    var generator = WorkloadGenerator(config)
    var out = [Event]()
    generator.generate { out.append($0) }
    return out
}

@Suite("Projections: checkpoints, time travel, determinism")
struct ProjectionTests {
    @Test("from scratch and from any checkpoint the answers are byte-identical", arguments: [UInt64(3), 17, 2026])
    func determinism(seed: UInt64) throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        var rng = SplitMix64(seed: seed)
        var events = workloadEvents(4000, seed: seed)
        while !events.isEmpty {
            let n = min(events.count, 1 + Int(rng.next() % 700))
            _ = try ledger.append(Array(events.prefix(n)))
            events.removeFirst(n)
        }
        let (first, last) = try ledger.read { r -> (Int64, Int64) in
            var lo = Int64.max
            var hi = Int64.min
            try r.scan { v in
                lo = min(lo, v.envelope.time.microseconds)
                hi = max(hi, v.envelope.time.microseconds)
                return true
            }
            return (lo, hi)
        }
        let scratch = Projector(ledger: ledger, policy: Policy())
        scratch.useCheckpoints = false
        let checkpointed = Projector(ledger: ledger, policy: Policy())
        (checkpointed.checkpointInterval, checkpointed.checkpointShare) = (50, nil)
        _ = try rendering(checkpointed, at: last, from: last - 3_600_000_000) // lays down checkpoints
        var saved = 0
        var deltas = 0
        try ledger.read { r in
            try r.derivedEntries(prefix: Array("cp".utf8)) { _, v in
                saved += 1
                if CheckpointValue(Array(v))?.base != nil { deltas += 1 }
            }
        }
        #expect(saved > 20)
        // Most copy runs from the one before, and every one restores.
        #expect(deltas * 2 > saved)
        #expect(try checkpointed.checkCheckpoints().problems.isEmpty)
        for _ in 0..<8 {
            let t = first + Int64(rng.next() % UInt64(last - first + 1))
            let from = t - Int64(rng.next() % 86_400_000_000)
            let a = try rendering(scratch, at: t, from: from)
            let b = try rendering(checkpointed, at: t, from: from)
            #expect(a == b)
            #expect(!a.isEmpty)
        }
    }

    @Test("a checkpoint whose chain of states is broken is passed over for the one before it")
    func brokenChain() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(3000, seed: 5)
        _ = try ledger.append(events)
        let last = events.map(\.envelope.time.microseconds).max()!
        let checkpointed = Projector(ledger: ledger, policy: Policy())
        (checkpointed.checkpointInterval, checkpointed.checkpointShare) = (40, nil)
        _ = try rendering(checkpointed, at: last, from: last)
        // The newest delta of device-0, and the state it copies from.
        var newest: ([UInt8], CheckpointValue)?
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.devicePrefix("device-0")) { k, v in
                if let parsed = CheckpointValue(Array(v)), parsed.base != nil { newest = (Array(k), parsed) }
            }
        }
        let (key, value) = try #require(newest)
        let base = try #require(value.base)
        let tag = Array(
            key[(CheckpointKey.devicePrefix("device-0").count)..<(CheckpointKey.devicePrefix("device-0").count + 8)])
        let baseKey = CheckpointKey.key("device-0", tag, time: base.time, seq: base.seq)
        #expect(try ledger.writeDerived { try $0.delete(prefix: baseKey) } == 1)
        let at = try #require(CheckpointKey.position(key)).time
        let fresh = Projector(ledger: ledger, policy: Policy())
        let engine = try fresh.engine(device: "device-0", at: at)
        let deviceEvents = events.filter { $0.envelope.device == "device-0" && $0.envelope.time.microseconds <= at }
            .count
        // Restored from an earlier checkpoint, not folded from the start.
        #expect(engine.appliedEvents > 0 && engine.appliedEvents < deviceEvents)
        let scratch = Projector(ledger: ledger, policy: Policy())
        scratch.useCheckpoints = false
        #expect(
            try rendering(fresh, at: at, from: at - 3_600_000_000)
                == (try rendering(scratch, at: at, from: at - 3_600_000_000)))
    }

    @Test("a late event invalidates the checkpoints after its time, and answers stay those of a full replay")
    func lateEvents() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(3000, seed: 9)
        _ = try ledger.append(events)
        let times = events.map(\.envelope.time.microseconds)
        let (first, last) = (times.min()!, times.max()!)
        let mid = first + (last - first) / 2
        let checkpointed = Projector(ledger: ledger, policy: Policy())
        (checkpointed.checkpointInterval, checkpointed.checkpointShare) = (40, nil)
        _ = try rendering(checkpointed, at: last, from: last)
        func checkpointTimes() throws -> [Int64] {
            var out = [Int64]()
            try ledger.read { r in
                try r.derivedEntries(prefix: Array("cp".utf8)) { k, _ in
                    let tail = Array(k.suffix(16))
                    out.append(
                        tail.withUnsafeBytes {
                            Int64(bitPattern: UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self))) ^ Int64.min
                        })
                }
            }
            return out
        }
        #expect(try checkpointTimes().contains { $0 > mid })
        func keysAfterMid(_ device: String) throws -> [[UInt8]: [UInt8]] {
            var out = [[UInt8]: [UInt8]]()
            try ledger.read { r in
                try r.derivedEntries(prefix: CheckpointKey.devicePrefix(device)) { k, v in
                    let key = Array(k)
                    if let p = CheckpointKey.position(key), p.time > mid { out[key] = Array(v) }
                }
            }
            return out
        }
        let (before0, before1) = (try keysAfterMid("device-0"), try keysAfterMid("device-1"))
        #expect(!before0.isEmpty && !before1.isEmpty)
        // A scroll dated in the middle of the log, recorded now.
        var decoder = EventDecoder()
        let late = try decoder.decode(
            #"{"type":"stack.scrolled","time":"\#(Timestamp(microseconds: mid).rfc3339)","device":"device-0","stack":"stack-0","instance":"w-0-2"}"#
        )
        _ = try ledger.append([late])
        let fresh = Projector(ledger: ledger, policy: Policy())
        (fresh.checkpointInterval, fresh.checkpointShare) = (40, nil)
        let answer = try rendering(fresh, at: last, from: mid - 1)
        // device-0's checkpoints after the late event that it changes are rewritten or gone
        // (one whose state the late event leaves as it was may stay); device-1's are as they
        // were; and every checkpoint left holds the state a fold of the log gives there.
        let after0 = try keysAfterMid("device-0")
        let after1 = try keysAfterMid("device-1")
        #expect(before0.contains { key, value in after0[key] != value })
        #expect(before1.allSatisfy { key, value in after1[key] == value })
        let check = try fresh.checkCheckpoints()
        #expect(check.checked >= after0.count + after1.count && check.problems.isEmpty, "\(check.problems)")
        let scratch = Projector(ledger: ledger, policy: Policy())
        scratch.useCheckpoints = false
        #expect(answer == (try rendering(scratch, at: last, from: mid - 1)))
        #expect(answer.contains(#""action":"scroll""#))
    }

    @Test("--known-at answers with what the device knew; --as-recorded-at with what the store held")
    func timeTravel() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let harness = try EngineHarness(
            text: try String(contentsOfFile: Fixtures.path("scenarios/cards-day.ndjson"), encoding: .utf8))
        let all = harness.events.map(\.event)
        let timeline = all.firstIndex { $0.envelope.time.rfc3339 == "2026-03-02T08:10:00Z" }!
        _ = try ledger.append(Array(all[..<timeline]))
        Thread.sleep(forTimeInterval: 0.01)
        let between = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        Thread.sleep(forTimeInterval: 0.01)
        _ = try ledger.append(Array(all[timeline...]))
        let projector = Projector(ledger: ledger, policy: Policy())
        let t = try Timestamp(rfc3339: "2026-03-02T09:45:00Z").microseconds
        func top(_ q: ProjectionQuery) throws -> String? {
            let e = try projector.engine(device: "default", at: t, query: q)
            return e.snapshot(at: Timestamp(microseconds: t)).stacks.first?.top?.widget.instance
        }
        #expect(try top(ProjectionQuery()) == "w-cards")
        #expect(try top(ProjectionQuery(knownAt: try Timestamp(rfc3339: "2026-03-02T08:00:00Z"))) == "w-weather")
        #expect(try top(ProjectionQuery(knownAt: try Timestamp(rfc3339: "2026-03-02T08:10:00Z"))) == "w-cards")
        #expect(try top(ProjectionQuery(asRecordedAt: between)) == "w-weather")
        #expect(try top(ProjectionQuery(without: [6])) == "w-weather")
    }
}

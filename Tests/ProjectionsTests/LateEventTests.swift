import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Synchronization
import Testing

@testable import Projections

/// A log of the synthetic workload in a scratch store, checkpointed, with its time span.
struct CheckpointedWorkload {
    let store = ScratchStore()
    let ledger: Ledger
    let policy: Policy
    let first: Int64
    let last: Int64

    init(events count: Int, seed: UInt64, policy: Policy) throws {
        ledger = try store.ledger()
        self.policy = policy
        let events = workloadEvents(count, seed: seed)
        _ = try ledger.append(events)
        let times = events.map(\.envelope.time.microseconds)
        (first, last) = (times.min()!, times.max()!)
        _ = try rendering(projector(), at: last, from: last)
    }

    /// The middle of the log's time span.
    var mid: Int64 { first + (last - first) / 2 }

    func projector(checkpoints: Bool = true) -> Projector {
        let p = Projector(ledger: ledger, policy: policy)
        (p.checkpointInterval, p.checkpointShare) = (40, nil)
        p.useCheckpoints = checkpoints
        return p
    }

    /// Appends one event, given as an NDJSON line, in a batch of its own.
    func appendLate(_ json: String) throws {
        var decoder = EventDecoder()
        _ = try ledger.append([try decoder.decode(json)])
    }

    /// Appends an app use of a new app, dated `time`, recorded now.
    func appendLateAppUse(at time: Int64, device: String = "device-0") throws {
        try appendLate(
            #"{"type":"app.foreground","time":"\#(Timestamp(microseconds: time).rfc3339)","device":"\#(device)","app":"com.example.late","duration":5}"#
        )
    }

    /// device-0's checkpoints of this policy: position and the log length each was made from.
    func checkpoints() throws -> [(time: Int64, seq: UInt64, highSeq: UInt64)] {
        let tag = CheckpointKey.engineTag(policy)
        var out = [(time: Int64, seq: UInt64, highSeq: UInt64)]()
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.prefix("device-0", tag)) { k, v in
                if let at = CheckpointKey.position(Array(k)), let parsed = CheckpointValue(Array(v)) {
                    out.append((at.time, at.seq, parsed.highSeq))
                }
            }
        }
        return out
    }

    func cleanup() { store.cleanup() }
}

@Suite("Late events: the refold that meets the stale checkpoints")
struct LateEventTests {
    /// Usage patterns over two days, so that a late app use has left the window a few
    /// days later in a small log.
    static let shortWindow: Policy = {
        var p = PolicyParameters()
        p.usagePatternWindowDays = 2
        return Policy(parameters: p)
    }()

    @Test(
        "a refold after a late event stops at the first stale checkpoint with its state; later ones stay and answers match a full replay"
    )
    func convergence() throws {
        let log = try CheckpointedWorkload(events: 6000, seed: 5, policy: LateEventTests.shortWindow)
        defer { log.cleanup() }
        let mid = log.mid
        let before = try log.checkpoints()
        #expect(before.contains { $0.time > mid + 86_400_000_000 * 4 })
        try log.appendLateAppUse(at: mid)
        let lastSeq = try log.ledger.read { try $0.lastSeq() }

        let checkpointed = log.projector()
        let scratch = log.projector(checkpoints: false)
        #expect(
            try rendering(checkpointed, at: log.last, from: mid) == (try rendering(scratch, at: log.last, from: mid)))
        let after = try log.checkpoints()
        // Checkpoints from before the late event, dated well after it, were kept...
        let kept = after.filter { $0.highSeq < lastSeq && $0.time > mid }
        #expect(!kept.isEmpty)
        // ...and the stretch between it and the first kept one was made anew.
        #expect(after.contains { $0.highSeq == lastSeq && $0.time > mid && $0.time < kept.first!.time })
        #expect(try checkpointed.checkCheckpoints().problems.isEmpty)

        var rng = SplitMix64(seed: 11)
        for _ in 0..<6 {
            let t = mid + Int64(rng.next() % UInt64(log.last - mid))
            #expect(
                try rendering(log.projector(), at: t, from: t - 7_200_000_000)
                    == (try rendering(scratch, at: t, from: t - 7_200_000_000)))
        }
    }

    @Test("a kept checkpoint does not serve a view of the log without the late event (--as-recorded-at before it)")
    func floors() throws {
        let log = try CheckpointedWorkload(events: 6000, seed: 5, policy: LateEventTests.shortWindow)
        defer { log.cleanup() }
        let mid = log.mid
        Thread.sleep(forTimeInterval: 0.01)
        let between = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        Thread.sleep(forTimeInterval: 0.01)
        try log.appendLateAppUse(at: mid)
        let lastSeq = try log.ledger.read { try $0.lastSeq() }
        _ = try rendering(log.projector(), at: log.last, from: log.last)
        let kept = try log.checkpoints().filter { $0.highSeq < lastSeq && $0.time > mid }
        #expect(!kept.isEmpty)
        // A view holding the log as it was before the late event: a kept checkpoint is
        // below its floor and is passed over; the answer is the old log's.
        let view = ProjectionQuery(asRecordedAt: between)
        let projector = log.projector()
        #expect(
            (try projector.checkpoint(device: "device-0", atOrBefore: log.last, ceiling: lastSeq - 1).map { $0.1.time }
                ?? .min) <= mid)
        #expect(
            try projector.checkpoint(device: "device-0", atOrBefore: log.last, ceiling: lastSeq)?.1.time ?? .min > mid)
        let t = kept.last!.time + 1
        #expect(
            try rendering(projector, at: t, from: t - 7_200_000_000, query: view)
                == (try rendering(log.projector(checkpoints: false), at: t, from: t - 7_200_000_000, query: view)))
    }

    @Test("a late event that changes the rest of the log leaves no stale checkpoint behind")
    func noConvergence() throws {
        let log = try CheckpointedWorkload(events: 3000, seed: 9, policy: Policy())
        defer { log.cleanup() }
        let mid = log.mid
        let staleToBe = try log.checkpoints().filter { $0.time >= mid }.count
        // A widget added by hand in the middle stays in the stack to the end.
        try log.appendLate(
            #"{"type":"stack.widgetAdded","time":"\#(Timestamp(microseconds: mid).rfc3339)","device":"device-0","stack":"stack-0","widget":{"instance":"w-late","app":"com.example.late","kind":"LateWidget","family":"systemSmall"}}"#
        )
        let lastSeq = try log.ledger.read { try $0.lastSeq() }
        let checkpointed = log.projector()
        // The refold meets every stale checkpoint, each different, and keeps the
        // checkpoints it made on the way: they come from the whole log.
        try checkpointed.prepare()
        let made = try log.checkpoints().filter { $0.highSeq == lastSeq && $0.time >= mid }
        #expect(staleToBe > 10)
        #expect(made.count >= staleToBe - 1)
        #expect(!(try log.checkpoints()).contains { $0.highSeq < lastSeq && $0.time >= mid })
        let answer = try rendering(checkpointed, at: log.last, from: mid)
        #expect(answer == (try rendering(log.projector(checkpoints: false), at: log.last, from: mid)))
        #expect(answer.contains("w-late"))
        #expect(!(try log.checkpoints()).contains { $0.highSeq < lastSeq && $0.time >= mid })
        #expect(try checkpointed.checkCheckpoints().problems.isEmpty)
    }

    @Test(
        "with usage leaving a two-day window all the time, answers from checkpoints and from scratch are byte-identical"
    )
    func pruningDeterminism() throws {
        let log = try CheckpointedWorkload(events: 6000, seed: 23, policy: LateEventTests.shortWindow)
        defer { log.cleanup() }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<8 {
            let t = log.first + Int64(rng.next() % UInt64(log.last - log.first))
            let from = t - Int64(rng.next() % 86_400_000_000)
            let a = try rendering(log.projector(), at: t, from: from)
            #expect(a == (try rendering(log.projector(checkpoints: false), at: t, from: from)))
            #expect(!a.isEmpty)
        }
    }

    @Test(
        "two projectors bringing the checkpoints up to date at once leave them consistent, and both answer as a full replay"
    )
    func concurrentPrepare() throws {
        let log = try CheckpointedWorkload(events: 6000, seed: 5, policy: LateEventTests.shortWindow)
        defer { log.cleanup() }
        let mid = log.mid
        try log.appendLateAppUse(at: mid)
        try log.appendLateAppUse(at: mid + 3_600_000_000, device: "device-1")
        let t = log.last - 43_200_000_000
        let expected = try rendering(log.projector(checkpoints: false), at: t, from: t - 3_600_000_000)
        let answers = Mutex([String]())
        let failures = Mutex([String]())
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let answer = try rendering(log.projector(), at: t, from: t - 3_600_000_000)
                answers.withLock { $0.append(answer) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(answers.withLock { $0 } == [expected, expected])
        #expect(try log.projector().checkCheckpoints().problems.isEmpty)
        #expect(try log.ledger.read { try $0.derivedMark("checkpoints") } == (try log.ledger.read { try $0.lastSeq() }))
    }

    @Test("damaged floors turn every checkpoint of the device away, and verify names them")
    func damagedFloors() throws {
        let log = try CheckpointedWorkload(events: 6000, seed: 5, policy: LateEventTests.shortWindow)
        defer { log.cleanup() }
        let mid = log.mid
        try log.appendLateAppUse(at: mid)
        let projector = log.projector()
        _ = try rendering(projector, at: log.last, from: log.last)
        let lastSeq = try log.ledger.read { try $0.lastSeq() }
        #expect(try projector.checkpoint(device: "device-0", atOrBefore: log.last, ceiling: lastSeq) != nil)
        let key = CheckpointFloors.key("device-0", CheckpointKey.engineTag(log.policy))
        try log.ledger.writeDerived { w in try w.put(key, [1, 2, 3]) }
        #expect(try projector.checkpoint(device: "device-0", atOrBefore: log.last, ceiling: lastSeq) == nil)
        #expect(try projector.checkpoint(device: "device-1", atOrBefore: log.last, ceiling: lastSeq) != nil)
        #expect(try projector.checkCheckpoints().problems.contains { $0.contains("floors of device-0 are malformed") })
        // The next query drops them and the floors; its fold lays down new checkpoints.
        let t = log.last - 86_400_000_000
        let next = log.projector()
        #expect(
            try rendering(next, at: t, from: t - 3_600_000_000)
                == (try rendering(log.projector(checkpoints: false), at: t, from: t - 3_600_000_000)))
        #expect(try next.checkCheckpoints().problems.isEmpty)
        #expect(try log.ledger.read { try $0.derived(key) } == nil)
        #expect(try next.checkpoint(device: "device-0", atOrBefore: t, ceiling: lastSeq) != nil)
    }

    @Test("floors: a later floor replaces those it covers, and a checkpoint needs the highest floor at or before it")
    func floorArithmetic() {
        var floors = CheckpointFloors()
        #expect(floors.minimumCeiling(at: 100) == 0)
        floors.add(time: 500, ceiling: 10)
        floors.add(time: 300, ceiling: 20)
        #expect(floors.entries.count == 1)
        floors.add(time: 700, ceiling: 30)
        #expect(floors.minimumCeiling(at: 299) == 0)
        #expect(floors.minimumCeiling(at: 300) == 20)
        #expect(floors.minimumCeiling(at: 699) == 20)
        #expect(floors.minimumCeiling(at: 700) == 30)
        #expect(CheckpointFloors(floors.encoded) == floors)
        #expect(CheckpointFloors([1, 2, 3]) == nil)
        #expect(CheckpointFloors(stored: nil).minimumCeiling(at: .max) == 0)
        #expect(CheckpointFloors(stored: [1, 2, 3]).minimumCeiling(at: .min) == .max)
    }
}

import Ledger
import SmartStack
import Testing

@testable import Projections

@Suite("Checkpoints of superseded engines")
struct CheckpointSweepTests {
    /// Keys of a checkpoint and a floor under `tag` for device-0.
    func entries(tag: [UInt8]) -> [[UInt8]] {
        [CheckpointKey.key("device-0", tag, time: 1_000, seq: 7), CheckpointFloors.key("device-0", tag)]
    }

    func count(_ ledger: Ledger, _ keys: [[UInt8]]) throws -> Int {
        try ledger.read { r in try keys.filter { try r.derived($0) != nil }.count }
    }

    func ownCheckpoints(_ ledger: Ledger, _ tag: [UInt8]) throws -> Int {
        var n = 0
        try ledger.read { r in try r.derivedEntries(prefix: CheckpointKey.prefix("device-0", tag)) { _, _ in n += 1 } }
        return n
    }

    @Test("the first query of a new engine generation deletes other generations' checkpoints and floors, once")
    func sweep() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(2000, seed: 11)
        _ = try ledger.append(events)
        let last = events.map(\.envelope.time.microseconds).max()!
        let older = entries(tag: [1, 2, 3, 4, 5, 6, 7, 8])
        try ledger.writeDerived { w in for k in older { try w.put(k, [0]) } }

        let first = Projector(ledger: ledger, policy: Policy())
        (first.checkpointInterval, first.checkpointShare) = (50, nil)
        _ = try first.engine(device: "device-0", at: last)
        #expect(try count(ledger, older) == 0)
        let own = try ownCheckpoints(ledger, first.tag)
        #expect(own > 0)
        #expect(try ledger.read { try $0.derivedMark("checkpointGeneration") } == Projector.checkpointGeneration)

        // Another policy's checkpoints of this generation, written after the sweep, stay.
        let otherPolicy = entries(tag: [9, 9, 9, 9, 9, 9, 9, 9])
        try ledger.writeDerived { w in for k in otherPolicy { try w.put(k, [0]) } }
        _ = try Projector(ledger: ledger, policy: Policy()).engine(device: "device-0", at: last)
        #expect(try count(ledger, otherPolicy) == 2)

        // A store last written by another generation: its entries go, this engine's stay.
        try ledger.writeDerived { w in try w.setMark("checkpointGeneration", 1) }
        _ = try Projector(ledger: ledger, policy: Policy()).engine(device: "device-0", at: last)
        #expect(try count(ledger, otherPolicy) == 0)
        #expect(try ownCheckpoints(ledger, first.tag) == own)
    }
}

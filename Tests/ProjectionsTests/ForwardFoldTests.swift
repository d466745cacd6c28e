import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Projections

@Suite("A fold carried forward")
struct ForwardFoldTests {
    @Test(
        "at instants mostly in time order, some a little back, its engines are the projector's, state and decisions",
        arguments: [UInt64(5), 41])
    func sameEngines(seed: UInt64) throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        _ = try ledger.append(workloadEvents(3_000, seed: seed))
        let projector = Projector(ledger: ledger, policy: Policy())
        let device = try #require(try projector.devices().first)
        let (first, last) = try #require(
            try ledger.read { try $0.eventSpan(device: device) }.map { ($0.first, $0.last) })
        let fresh = Projector(ledger: ledger, policy: Policy())
        fresh.useCheckpoints = false
        let forward = ForwardFold(projector: fresh, device: device)
        var random = SplitMix64(seed: seed)
        var t = first
        var compared = 0
        while t < last {
            // Forward by up to six hours; one time in four, a few minutes back.
            let back = random.next() % 4 == 0
            let asked = back ? t - Int64(random.next() % 600) * 1_000_000 : t
            let expected = try projector.engine(device: device, at: asked)
            let engine = try #require(try forward.engine(at: asked, query: ProjectionQuery()))
            var a = CanonicalWriter()
            var b = CanonicalWriter()
            ProjectionJSON.writeStacks(&a, expected.snapshot(at: Timestamp(microseconds: asked)).stacks)
            ProjectionJSON.writeStacks(&b, engine.snapshot(at: Timestamp(microseconds: asked)).stacks)
            #expect(a.text == b.text, "at \(asked)")
            let window = try projector.decisions(device: device, from: asked - 300_000_000, to: asked + 300_000_000)
            let start = try forward.engine(justBefore: asked - 300_000_000, query: ProjectionQuery())
            let carried = try fresh.decisions(
                device: device, from: asked - 300_000_000, to: asked + 300_000_000, engineAt: asked, start: start)
            var c = CanonicalWriter()
            var d = CanonicalWriter()
            for x in window { ProjectionJSON.write(&c, x) }
            for x in carried.decisions { ProjectionJSON.write(&d, x) }
            #expect(c.text == d.text, "decisions around \(asked)")
            compared += 1
            t += Int64(random.next() % 21_600) * 1_000_000 + 1
        }
        #expect(compared > 20)
        // Another view of the log is the projector's to answer.
        var whatIf = ProjectionQuery()
        whatIf.without = [1]
        #expect(try forward.engine(at: last, query: whatIf) == nil)
    }
}

import Ledger
import SmartStack
import Testing

@testable import Projections

/// The device's rotation records are judged from one fold that gives both the engine at the
/// record and the decisions around it: each must be what the two separate questions give.
@Suite("Decisions around an instant, with the engine at it")
struct DecisionsAroundTests {
    @Test("the decisions equal decisions(from:to:), and the engine equals engine(at:), from checkpoints and without")
    func oneFoldAnswersBoth() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = workloadEvents(3000, seed: 23)
        _ = try ledger.append(events)
        let times = events.filter { $0.envelope.device == "device-0" }.map(\.envelope.time.microseconds).sorted()
        var compared = 0
        var decided = 0
        for checkpoints in [false, true] {
            let projector = Projector(ledger: ledger, policy: Policy())
            (projector.checkpointInterval, projector.checkpointShare) = (64, nil)
            projector.useCheckpoints = checkpoints
            for k in stride(from: 40, to: times.count - 40, by: times.count / 9) {
                let instant = times[k]
                let window: Int64 = 3 * 3_600_000_000
                let both = try projector.decisions(
                    device: "device-0", from: instant - window, to: instant + window, engineAt: instant)
                let apart = try projector.decisions(device: "device-0", from: instant - window, to: instant + window)
                #expect(both.decisions == apart)
                let engine = try projector.engine(device: "device-0", at: instant)
                #expect(both.engine.checkpoint() == engine.checkpoint())
                let at = Timestamp(microseconds: instant)
                #expect(both.engine.snapshot(at: at) == engine.snapshot(at: at))
                compared += 1
                decided += apart.count
            }
        }
        #expect(compared >= 16)
        #expect(decided > 0)
    }
}

import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Projections

/// An observed layout acts on the span before its time (`docs/events.md`, "Observed
/// layouts"): recorded late, it makes every checkpoint of its device stale.
@Suite("Late observed layouts")
struct LateLayoutTests {
    /// A complete layout of device-0 dated at `time`: one new stack of two widgets, the old
    /// stacks removed from then on.
    static func layout(at time: Int64) -> String {
        let t = Timestamp(microseconds: time).rfc3339
        let member = { (i: Int) in
            #"{"instance":"observed-\#(i)","app":"com.example.app\#(i)","kind":"Widget\#(i)","family":"systemSmall","configuration":null}"#
        }
        return
            #"{"type":"stack.layoutObserved","time":"\#(t)","device":"device-0","layout":"sha256:late","stacks":[{"stack":"observed","platform":"iOS","family":"systemSmall","members":[\#(member(0)),\#(member(1))],"smartRotate":true,"widgetSuggestions":true}],"method":"recorded","complete":true}"#
    }

    @Test("answers from checkpoints equal a replay from scratch, before and after the late layout's time")
    func checkpointsAgree() throws {
        let log = try CheckpointedWorkload(events: 4000, seed: 7, policy: Policy())
        defer { log.cleanup() }
        #expect(!(try log.checkpoints()).isEmpty)
        try log.appendLate(LateLayoutTests.layout(at: log.mid))
        let scratch = log.projector(checkpoints: false)
        for t in [log.first + 3_600_000_000, log.mid - 1, log.mid + 3_600_000_000, log.last] {
            let checkpointed = try rendering(log.projector(), at: t, from: t - 7_200_000_000)
            #expect(checkpointed == (try rendering(scratch, at: t, from: t - 7_200_000_000)))
        }
        let engine = try log.projector().engine(device: "device-0", at: log.first + 3_600_000_000)
        let early = engine.snapshot(at: Timestamp(microseconds: log.first + 3_600_000_000))
        #expect(early.stacks.contains { $0.stack == "observed" })
        #expect(early.assumptions.contains { $0.code == "LAYOUT_ASSUMED" && $0.stack == "observed" })
        let late = try log.projector().engine(device: "device-0", at: log.last)
        #expect(late.snapshot(at: Timestamp(microseconds: log.last)).stacks.map(\.stack) == ["observed"])
        #expect(try log.projector().checkCheckpoints().problems.isEmpty)
    }

    @Test(
        "a view without the layout (--without, --known-at before it) has no assumed stack, and checkpoints do not leak it"
    )
    func viewsWithoutTheLayout() throws {
        let log = try CheckpointedWorkload(events: 4000, seed: 7, policy: Policy())
        defer { log.cleanup() }
        try log.appendLate(LateLayoutTests.layout(at: log.mid))
        let seq = try log.ledger.read { try $0.lastSeq() }
        let t = log.first + 3_600_000_000
        _ = try rendering(log.projector(), at: log.last, from: log.last)
        for query in [
            ProjectionQuery(without: [seq]), ProjectionQuery(knownAt: Timestamp(microseconds: log.mid - 1)),
        ] {
            let engine = try log.projector().engine(device: "device-0", at: t, query: query)
            #expect(!engine.snapshot(at: Timestamp(microseconds: t)).stacks.contains { $0.stack == "observed" })
            #expect(
                try rendering(log.projector(), at: t, from: t - 7_200_000_000, query: query)
                    == (try rendering(log.projector(checkpoints: false), at: t, from: t - 7_200_000_000, query: query)))
        }
    }
}

import Ledger
import StackLedgerTesting
import Testing

@testable import SmartStack

/// A checkpoint series copies each day's usage bytes from the state before while the
/// day is unchanged: the bytes must be exactly those of a state written afresh.
@Suite("Usage records written day by day")
struct UsageDaysTests {
    @Test("bytes that copy unchanged days equal bytes written afresh, through donations, app uses and deletions")
    func copiedDaysMatchFreshBytes() throws {
        var config = WorkloadGenerator.Configuration()
        config.events = 12000
        config.seed = 31
        config.devices = 2
        config.latePercent = 0
        var generator = WorkloadGenerator(config)
        var events = [Event]()
        generator.generate { if $0.envelope.device == "device-0" { events.append($0) } }
        let ordered = withDeletions(
            events.enumerated().sorted {
                ($0.element.envelope.time.microseconds, $0.offset) < ($1.element.envelope.time.microseconds, $1.offset)
            }.map(\.element))
        #expect(ordered.contains { if case .donationsDeleted = $0.body { true } else { false } })
        var engine = DeviceEngine(device: "device-0", policy: Policy())
        var days = UsageDays()
        var compared = 0
        var runs = 0
        var previous = [UInt8]()
        for (k, event) in ordered.enumerated() {
            engine.apply(event, seq: UInt64(k + 1))
            guard k % 97 == 96 else { continue }
            let state = engine.checkpointState()
            let reused = state.bytes(reusing: &days)
            #expect(reused == state.bytes())
            #expect(try DeviceEngine(checkpoint: reused, policy: Policy()).checkpoint() == reused)
            // Every copied run is the same bytes in this state and in the one before.
            for run in days.copies {
                #expect(reused[run.at..<(run.at + run.count)] == previous[run.from..<(run.from + run.count)])
            }
            runs += days.copies.count
            previous = reused
            compared += 1
        }
        #expect(compared > 40)
        #expect(runs == days.copied)
        // Most days stay as they were from one checkpoint to the next.
        #expect(days.copied > compared)
    }
}

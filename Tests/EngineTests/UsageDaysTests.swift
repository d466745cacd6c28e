import Ledger
import StackLedgerTesting
import Testing

@testable import SmartStack

/// A checkpoint series copies each day's usage bytes from the state before while the
/// day is unchanged: the bytes must be exactly those of a state written afresh.
@Suite("Usage records written day by day")
struct UsageDaysTests {
    /// The first device's events of a generated workload, in time order (ties in the order
    /// generated).
    static func deviceZeroEvents(generating count: Int, devices: Int, seed: UInt64) -> [Event] {
        var config = WorkloadGenerator.Configuration()
        config.events = count
        config.seed = seed
        config.devices = devices
        config.latePercent = 0
        var generator = WorkloadGenerator(config)
        var events = [Event]()
        generator.generate { if $0.envelope.device == "device-0" { events.append($0) } }
        return events.enumerated().sorted {
            ($0.element.envelope.time.microseconds, $0.offset) < ($1.element.envelope.time.microseconds, $1.offset)
        }.map(\.element)
    }

    @Test("bytes that copy unchanged days equal bytes written afresh, through donations, app uses and deletions")
    func copiedDaysMatchFreshBytes() throws {
        let ordered = withDeletions(Self.deviceZeroEvents(generating: 12000, devices: 2, seed: 31))
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

    @Test(
        "a day's records name their app, intent and parameters from one table: equal ones give the same bytes, shared or not"
    )
    func equalSignaturesShareAnEntry() throws {
        func model(sharing: Bool) -> DeviceModel {
            var model = DeviceModel(device: "device-0")
            let first = UsageRecord(
                time: 3_600_000_000, hour: 1, seq: 1, app: "com.example.a", intent: "OrderIntent",
                parameters: ["size": "\"large\"", "milk": "\"oat\""])
            var second = UsageRecord(
                time: 7_200_000_000, hour: 2, seq: 2, app: "com.example.a", intent: "OrderIntent",
                parameters: ["milk": "\"oat\"", "size": "\"large\""])
            if sharing { second.signature = first.signature }
            model.usage[1].append(first)
            model.usage[2].append(second)
            return model
        }
        let apart = CheckpointState(model(sharing: false), usageHorizon: .min).bytes()
        #expect(apart == CheckpointState(model(sharing: true), usageHorizon: .min).bytes())
        let restored = try DeviceEngine(checkpoint: apart, policy: Policy())
        let first = try #require(restored.state.usage[1].first)
        let second = try #require(restored.state.usage[2].first)
        #expect(first.signature === second.signature)
        #expect(second.parameters == ["size": "\"large\"", "milk": "\"oat\""])
        #expect((first.time, second.time, second.seq) == (3_600_000_000, 7_200_000_000, 2))
    }

    @Test(
        "days of usage wholly before the pattern window are not written, and an engine restored without them goes on as the one that kept them"
    )
    func staleDaysAreLeftOut() throws {
        let events = Self.deviceZeroEvents(generating: 12000, devices: 1, seed: 5)
        var engine = DeviceEngine(device: events[0].envelope.device, policy: Policy())
        let stop = events.count * 2 / 3
        for (k, event) in events.prefix(stop).enumerated() { engine.apply(event, seq: UInt64(k + 1)) }
        func days(_ e: DeviceEngine) -> [Int64: [Int64]] {
            Dictionary(grouping: e.state.usage.joined().map(\.time), by: DeviceModel.usageDay)
        }
        let horizon = engine.usageHorizon
        let kept = days(engine)
        let stale = kept.filter { $0.value.allSatisfy { $0 <= horizon } }
        #expect(!stale.isEmpty, "the engine still holds days of records before the window")
        var restored = try DeviceEngine(checkpoint: engine.checkpoint(), policy: Policy())
        #expect(days(restored) == kept.filter { stale[$0.key] == nil })
        for (k, event) in events.enumerated().dropFirst(stop).prefix(600) {
            engine.apply(event, seq: UInt64(k + 1))
            restored.apply(event, seq: UInt64(k + 1))
        }
        #expect(restored.checkpoint() == engine.checkpoint())
    }
}

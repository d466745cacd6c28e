import Ledger
import StackLedgerTesting
import Testing

@testable import SmartStack

/// The engine keeps derived caches (members' candidates in two parts, the Widget
/// Suggestions plan, usage patterns, stacks that cannot change before an instant). They
/// must never change a decision: an engine that starts every event with empty caches
/// decides exactly as one that kept them.
@Suite("Engine caches")
struct EngineCacheTests {
    @Test(
        "an engine with warm caches decides and ranks as one whose caches were dropped before each event",
        arguments: [UInt64(5), 77])
    func cachesNeverChangeADecision(seed: UInt64) {
        var config = WorkloadGenerator.Configuration()
        config.events = 24000
        config.seed = seed
        config.devices = 4 // device-3 is a watch
        config.latePercent = 0
        var generator = WorkloadGenerator(config)
        var byDevice = [String: [Event]]()
        generator.generate { byDevice[$0.envelope.device, default: []].append($0) }
        #expect(byDevice.count == 4)
        var decisions = 0
        for (device, events) in byDevice.sorted(by: { $0.key < $1.key }) {
            let ordered = withDeletions(
                events.enumerated().sorted {
                    ($0.element.envelope.time.microseconds, $0.offset) < (
                        $1.element.envelope.time.microseconds, $1.offset
                    )
                }.map(\.element))
            var warm = DeviceEngine(device: device, policy: Policy())
            for (k, event) in ordered.enumerated() {
                var cold = warm
                cold.dropDerivedCaches()
                warm.apply(event, seq: UInt64(k + 1))
                cold.apply(event, seq: UInt64(k + 1))
                let (a, b) = (warm.takeDecisions(), cold.takeDecisions())
                #expect(a == b, "\(device): event \(k + 1) (\(event.body.typeName))")
                if a != b { return }
                decisions += a.count
                // What the caches answer now, member by member and for the system's places.
                for i in warm.state.stacks.indices {
                    for j in warm.state.stacks[i].members.indices
                    where warm.memberCandidate(stack: i, member: j) != cold.memberCandidate(stack: i, member: j) {
                        Issue.record("\(device): event \(k + 1): member \(j) of stack \(i) differs")
                        return
                    }
                }
                let (placedWarm, placedCold) = (warm.systemCandidates(), cold.systemCandidates())
                #expect(
                    placedWarm.map(\.stack) == placedCold.map(\.stack)
                        && placedWarm.map(\.candidate) == placedCold.map(\.candidate),
                    "\(device): event \(k + 1): system candidates differ")
                if k % 500 == 0 { #expect(warm.checkpoint() == cold.checkpoint()) }
            }
        }
        #expect(decisions > 100)
    }
}

/// `events` with, after every 400th donation, the deletion of its intent's donations
/// (D4), which changes the usage of hours other than the current one.
func withDeletions(_ events: [Event]) -> [Event] {
    var out = [Event]()
    var donations = 0
    var decoder = EventDecoder()
    for event in events {
        out.append(event)
        guard case .intentDonated(let d) = event.body, let app = event.envelope.app else { continue }
        donations += 1
        guard donations % 400 == 0 else { continue }
        let line =
            #"{"type":"intent.donationsDeleted","time":"\#(event.envelope.time.rfc3339)","device":"\#(event.envelope.device)","app":"\#(app)","intent":"\#(d.intent.name)"}"#
        out.append(try! decoder.decode(line))
    }
    return out
}

extension DeviceEngine {
    /// Forgets everything derived from the state, as a restored checkpoint does.
    mutating func dropDerivedCaches() {
        caches.members.removeAll()
        caches.usage = UsageCache()
        caches.suggestionPlan = SuggestionPlan()
        caches.stableUntil = StableStacks()
        caches.placementEpoch &+= 1
    }
}

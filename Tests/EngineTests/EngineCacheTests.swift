import Testing
import Ledger
@testable import SmartStack
import StackLedgerTesting

/// The engine keeps derived caches (members' candidates in two parts, the Widget
/// Suggestions plan, usage patterns, stacks that cannot change before an instant). They
/// must never change a decision: an engine that starts every event with empty caches
/// decides exactly as one that kept them.
@Suite("Engine caches")
struct EngineCacheTests {
    @Test("an engine with warm caches decides as one whose caches were dropped before each event", arguments: [UInt64(5), 77])
    func cachesNeverChangeADecision(seed: UInt64) {
        var config = WorkloadGenerator.Configuration()
        config.events = 24000
        config.seed = seed
        config.devices = 4  // device-3 is a watch
        config.latePercent = 0
        var generator = WorkloadGenerator(config)
        var byDevice = [String: [Event]]()
        generator.generate { byDevice[$0.envelope.device, default: []].append($0) }
        #expect(byDevice.count == 4)
        var decisions = 0
        for (device, events) in byDevice.sorted(by: { $0.key < $1.key }) {
            let ordered = events.enumerated().sorted {
                ($0.element.envelope.time.microseconds, $0.offset) < ($1.element.envelope.time.microseconds, $1.offset)
            }.map(\.element)
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
                if k % 500 == 0 { #expect(warm.checkpoint() == cold.checkpoint()) }
            }
        }
        #expect(decisions > 100)
    }
}

extension DeviceEngine {
    /// Forgets everything derived from the state, as a restored checkpoint does.
    mutating func dropDerivedCaches() {
        memberCache.removeAll()
        usageCache = UsageCache()
        suggestionPlan = SuggestionPlan()
        stableUntil = []
        placementEpoch &+= 1
    }
}

import StackLedgerTesting
import Testing

@testable import SmartStack

/// A donation's identifier and group identifier, which a usage record holds apart from its
/// other fields: deletions by either (D4) find the right records, before and after a
/// checkpoint's restore.
@Suite("Donations deleted by identifier or group")
struct DonationTagTests {
    /// Three days of matching donations at 09:10, the first two with identifiers, the
    /// second and third in group `g`, the third with neither identifier.
    static let donations = [
        ("2026-02-26", #","donationId":"a""#),
        ("2026-02-27", #","donationId":"b","groupIdentifier":"g""#),
        ("2026-02-28", #","groupIdentifier":"g""#),
    ].map { day, tags in
        Line.event(
            "intent.donated", at: "\(day)T09:10:00Z", app: "com.fest",
            #""api":"appIntents","intent":{"intent":"FestivalIntent","parameters":{"city":"Paris","type":"Art"}},"predictionParameters":["city","type"]\#(tags)"#
        )
    }

    static func deletion(_ fields: String) -> String {
        Line.event("intent.donationsDeleted", at: "2026-03-01T12:00:00Z", app: "com.fest", fields)
    }

    /// The events (sequence numbers) of the donations that `deletion` deleted, in an engine
    /// folded straight through and in one restored from a checkpoint made before it.
    func deleted(by deletion: String) throws -> (folded: [UInt64], restored: [UInt64]) {
        let harness = try EngineHarness(SignalRuleTests.festivalStack + DonationTagTests.donations + [deletion])
        func deleted(_ engine: DeviceEngine) -> [UInt64] {
            engine.state.usage.joined().filter { $0.deletedBy != nil }.map(\.seq).sorted()
        }
        var folded = DeviceEngine(device: "default", policy: Policy())
        for (seq, event) in harness.events { folded.apply(event, seq: seq) }
        var before = DeviceEngine(device: "default", policy: Policy())
        for (seq, event) in harness.events.dropLast() { before.apply(event, seq: seq) }
        let bytes = before.checkpoint()
        var restored = try DeviceEngine(checkpoint: bytes, policy: Policy())
        #expect(restored.checkpoint() == bytes)
        let (seq, event) = harness.events.last!
        restored.apply(event, seq: seq)
        #expect(restored.checkpoint() == folded.checkpoint())
        return (deleted(folded), deleted(restored))
    }

    @Test("a deletion by identifiers or by group deletes those donations only, before and after a restore")
    func deletions() throws {
        // The donations are events 4, 5 and 6 (after the stack and its two widgets).
        #expect(try deleted(by: DonationTagTests.deletion(#""donationIds":["x","y"]"#)) == ([], []))
        #expect(try deleted(by: DonationTagTests.deletion(#""groupIdentifier":"h""#)) == ([], []))
        #expect(try deleted(by: DonationTagTests.deletion(#""donationIds":["b"]"#)) == ([5], [5]))
        #expect(try deleted(by: DonationTagTests.deletion(#""donationIds":["a","b"]"#)) == ([4, 5], [4, 5]))
        #expect(try deleted(by: DonationTagTests.deletion(#""groupIdentifier":"g""#)) == ([5, 6], [5, 6]))
    }

    @Test("a record holds its identifiers only when it has one, and compares by them")
    func tags() {
        let signature = UsageSignature(app: "com.fest", intent: "FestivalIntent", parameters: [:])
        func record(_ id: String?, _ group: String?) -> UsageRecord {
            UsageRecord(
                time: 1, hour: 9, seq: 1, signature: signature, donationId: id, groupIdentifier: group, deletedBy: nil)
        }
        #expect(record(nil, nil).donationId == nil && record(nil, nil).groupIdentifier == nil)
        #expect(record("a", nil).donationId == "a" && record("a", nil).groupIdentifier == nil)
        #expect(record(nil, "g").groupIdentifier == "g")
        #expect(record("a", "g") == record("a", "g"))
        #expect(record("a", "g") != record("a", nil) && record("a", nil) != record(nil, nil))
    }
}

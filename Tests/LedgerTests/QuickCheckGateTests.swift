import Ledger
import Projections
import SmartStack
import Testing

/// The quick check the command line and `serve` both answer behind.
@Suite("The quick-check gate")
struct QuickCheckGateTests {
    @Test("an intact store is verified; a forged one is refused, or answered unverified with its damage skipped")
    func admitsAndRefuses() throws {
        let store = try TamperTests().makeStore()
        defer { store.cleanup() }
        let ledger = try Ledger(path: store.path)
        let projector = Projector(ledger: ledger, policy: Policy())
        let gate = QuickCheckGate(ledger: ledger)
        #expect(try gate.admit(force: false, projector: projector).isVerified)
        #expect(!projector.skipsDamagedRecords)

        let tamper = try Tamper(store.path)
        var rec = try tamper.record(90)
        rec[10] ^= 0x01
        try tamper.setRecord(90, Tamper.resealed(rec, seq: 90))
        // The forger's write is a new commit: the gate checks again rather than keep its finding.
        let refusal = #expect(throws: QuickCheckGate.Refusal.self) { try gate.admit(force: false) }
        #expect(refusal?.message.hasPrefix("the store fails its quick check (") == true)
        #expect(refusal?.message.hasSuffix("); run `stackledger verify`") == true)
        let forced = try gate.admit(force: true, projector: projector)
        #expect(!forced.isVerified)
        #expect(projector.skipsDamagedRecords)
    }
}

import Foundation
import Ledger
import Projections
import RecordFormat
import SmartStack
import StackLedgerTesting
import Testing

@testable import Server

/// `serve` answers a `state` or `why` between two nearby checkpoints on the thread its
/// connection came in on, with engines of its own; those answers are the answering
/// threads' to the byte, and every other question is left to them.
@Suite("serve's quick answers", .serialized)
struct QuickAnswersTests {
    /// A store of 6,000 events of 4 devices, rebuilt with checkpoints every 224 events.
    func rebuiltStore(_ dir: WorkDirectory) throws -> Ledger {
        let input = try dir.write("w.ndjson", workload(6000, seed: 5))
        #expect(try CLI.run(["ingest", "--store", dir.store, input]).status == 0)
        #expect(try CLI.run(["rebuild", "--store", dir.store]).status == 0)
        return try Ledger(path: dir.store)
    }

    /// Instants spread over each device's events, and the device.
    func instants(_ ledger: Ledger, count: Int) throws -> [(device: String, at: Timestamp)] {
        try ledger.read { r in
            try r.devices().sorted().flatMap { device -> [(device: String, at: Timestamp)] in
                guard let span = try r.eventSpan(device: device) else { return [] }
                return (0..<count).map { k in
                    (
                        device,
                        Timestamp(microseconds: span.first + (span.last - span.first) / Int64(count + 1) * Int64(k + 1))
                    )
                }
            }
        }
    }

    @Test("a question between nearby checkpoints is answered quickly, with the answering threads' bytes")
    func quickAnswersAreTheSame() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let ledger = try rebuiltStore(dir)
        let quick = QuickAnswers(engines: [StoreAPI(ledger: ledger, policy: Policy(), tool: "t")])
        let threads = StoreAPI(ledger: ledger, policy: Policy(), tool: "t")
        var answered = 0
        for (device, at) in try instants(ledger, count: 6) {
            let stateQ = QueryParameters([("device", device), ("at", at.rfc3339)])
            if let answer = try quick.answer(stateQ, { try $0.state($1) }) {
                answered += 1
                #expect(answer.body == (try threads.state(stateQ)).body)
            }
            let whyQ = QueryParameters([("device", device), ("at", at.rfc3339), ("stack", "stack-0")])
            if let answer = try quick.answer(whyQ, { try $0.why($1) }) {
                answered += 1
                #expect(answer.body == (try threads.why(whyQ)).body)
            }
        }
        // Most instants lie between two checkpoints; the test does not pass by answering none.
        #expect(answered >= 24)
    }

    @Test(
        "what-if, known-at, an unnamed device, instants outside the checkpoints, and a store without them are left to the answering threads"
    )
    func otherQuestionsAreNotQuick() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let ledger = try rebuiltStore(dir)
        let engine = StoreAPI(ledger: ledger, policy: Policy(), tool: "t")
        let (device, at) = try instants(ledger, count: 2)[0]
        let limit = QuickAnswers.foldLimit
        #expect(engine.isQuick(QueryParameters([("device", device), ("at", at.rfc3339)]), foldLimit: limit))
        #expect(!engine.isQuick(QueryParameters([("device", device), ("at", at.rfc3339)]), foldLimit: 0))
        #expect(
            !engine.isQuick(
                QueryParameters([("device", device), ("at", at.rfc3339), ("without", "5")]), foldLimit: limit))
        #expect(
            !engine.isQuick(
                QueryParameters([("device", device), ("at", at.rfc3339), ("knownAt", at.rfc3339)]), foldLimit: limit))
        #expect(!engine.isQuick(QueryParameters([("at", at.rfc3339)]), foldLimit: limit))
        #expect(!engine.isQuick(QueryParameters([("device", device), ("at", "yesterday")]), foldLimit: limit))
        #expect(
            !engine.isQuick(QueryParameters([("device", device), ("at", "1990-01-01T00:00:00Z")]), foldLimit: limit))
        #expect(
            !engine.isQuick(QueryParameters([("device", device), ("at", "2090-01-01T00:00:00Z")]), foldLimit: limit))

        let fresh = WorkDirectory()
        defer { fresh.cleanup() }
        let input = try fresh.write("w.ndjson", workload(6000, seed: 5))
        #expect(try CLI.run(["ingest", "--store", fresh.store, input]).status == 0)
        let unfolded = StoreAPI(ledger: try Ledger(path: fresh.store), policy: Policy(), tool: "t")
        #expect(!unfolded.isQuick(QueryParameters([("device", device), ("at", at.rfc3339)]), foldLimit: limit))
    }
}

import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Server

/// `/api/search` reads the key index for an app, kind or instance, and walks the device's
/// events only for a type or a value named by too many events: the same answer either way.
@Suite("serve's search")
struct SearchTests {
    @Test("the key index and the walk of the device's events find the same events, in the same order")
    func indexedEqualsWalk() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(4000, seed: 3))
        #expect(CLI.call(["ingest", "--store", dir.store, input]).status == 0)
        let ledger = try Ledger(path: dir.store)
        let api = StoreAPI(ledger: ledger, policy: Policy(), tool: "t")
        let device = try #require(try ledger.read { try $0.devices() }.sorted().first)
        var nonEmpty = 0
        for text in [
            "w-0-0", "w-1-2", "Widget0", "Widget3", "com.example.app0", "com.example.app2", "stack.created",
            "no-such-thing",
        ] {
            let q = QueryParameters([("device", device), ("q", text)])
            let indexed = try api.search(q)
            let walked = try api.search(q, indexedLimit: 0)
            #expect(indexed.body == walked.body, "\(text)")
            #expect(indexed.headers.map(\.0) == walked.headers.map(\.0), "\(text)")
            if !indexed.body.isEmpty { nonEmpty += 1 }
        }
        // The values are the workload's: most name events, so the comparison is not of empty answers.
        #expect(nonEmpty >= 6)
    }
}

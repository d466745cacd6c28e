import Foundation
import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Forensics
@testable import Server

/// `serve` makes a device's overview once for each state of its log, shared by its engines.
@Suite("serve's overview cache", .serialized)
struct OverviewCacheTests {
    @Test("engines share one overview; checkpoints landing keep it, a new event makes it again")
    func madeOncePerLog() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let input = try dir.write("w.ndjson", workload(3000, seed: 9))
        #expect(try CLI.run(["ingest", "--store", dir.store, input]).status == 0)
        let ledger = try Ledger(path: dir.store)
        let cache = OverviewCache()
        let first = StoreAPI(ledger: ledger, policy: Policy(), tool: "t", overviews: cache)
        let second = StoreAPI(ledger: ledger, policy: Policy(), tool: "t", overviews: cache)
        let device = try #require(try ledger.read { try $0.devices() }.sorted().first)
        let q = QueryParameters([("device", device)])

        let made = try first.overview(q).body
        #expect(cache.made == 1)
        #expect(try second.overview(q).body == made)
        #expect(cache.made == 1)

        // Checkpoints are a new commit of the store, not a new log.
        let before = try ledger.commitIdentity()
        #expect(try CLI.run(["rebuild", "--store", dir.store]).status == 0)
        #expect(try ledger.commitIdentity() != before)
        #expect(try second.overview(q).body == made)
        #expect(cache.made == 1)

        let late = try dir.write(
            "late.ndjson",
            #"{"type":"device.info","time":"2030-01-01T00:00:00Z","device":"\#(device)","platform":"iOS","osVersion":"17.0"}"#
                + "\n")
        #expect(try CLI.run(["ingest", "--store", dir.store, late]).status == 0)
        let remade = try first.overview(q).body
        #expect(cache.made == 2)
        #expect(remade != made)
    }

    @Test("an older log's overview never replaces a newer one")
    func newerKept() {
        let cache = OverviewCache()
        let newer = StoreAPI.Answer(contentType: "application/json", body: Array("new".utf8))
        let older = StoreAPI.Answer(contentType: "application/json", body: Array("old".utf8))
        _ = cache.answer(device: "d", lastSeq: 9) { newer }
        _ = cache.answer(device: "d", lastSeq: 5) { older }
        #expect(cache.answer(device: "d", lastSeq: 9) { older }.body == newer.body)
        #expect(cache.made == 2)
    }

    @Test(
        "a tally extended commit by commit, events arriving out of time order, read in one part or in two merged, gives each device's overview as one made of the whole log"
    )
    func extendedByCommits() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = try Self.mixedLines(events: 9_000, seed: 4)
        let ledger = try Ledger(path: dir.store)
        var (tally, split) = (OverviewTally(), OverviewTally())
        // Each commit holds every third line: each adds events earlier than the last one's.
        for part in 0..<3 {
            let chunk = lines.indices.filter { $0 % 3 == part }.map { lines[$0] + "\n" }.joined()
            let input = try dir.write("part\(part).ndjson", chunk)
            #expect(CLI.call(["ingest", "--store", dir.store, input]).status == 0)
            let devices = try ledger.read { try $0.devices() }.sorted()
            #expect(devices.count == 3)
            var records = 0
            for device in devices {
                let extended = try ledger.read { r in
                    try tally.extend(r, through: try r.lastSeq())
                    return try tally.overview(device: device, reader: r)
                }
                let whole = try DeviceOverview.collect(ledger: ledger, device: device)
                // Read in parts on two threads, each of at least 500 records, merged.
                try split.extend(ledger, through: try ledger.read { try $0.lastSeq() }, splitAbove: 500)
                let merged = try ledger.read { try split.overview(device: device, reader: $0) }
                var (a, b, c) = (CanonicalWriter(), CanonicalWriter(), CanonicalWriter())
                extended.writeJSON(&a)
                whole.writeJSON(&b)
                merged.writeJSON(&c)
                #expect(a.bytes == b.bytes, "\(device) after commit \(part + 1)")
                #expect(c.bytes == b.bytes, "\(device) after commit \(part + 1), read in parts")
                #expect(extended.buckets.reduce(0) { $0 + $1.events } == extended.events)
                #expect(extended.buckets.reduce(0) { $0 + $1.records } == extended.records.count)
                records += extended.records.count
            }
            #expect(records > 0, "the many-stacks device's records are listed")
        }
    }

    @Test(
        "rebuild keeps the tally in the store; a new server reads it and only the records after it, keeps a longer one, and a shorter one never replaces it"
    )
    func keptByTheStore() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let lines = try Self.mixedLines(events: 6_000, seed: 8)
        let first = try dir.write("first.ndjson", lines[..<4_000].map { $0 + "\n" }.joined())
        let rest = try dir.write("rest.ndjson", lines[4_000...].map { $0 + "\n" }.joined())
        #expect(CLI.call(["ingest", "--store", dir.store, first]).status == 0)
        #expect(CLI.call(["rebuild", "--store", dir.store]).status == 0)
        let ledger = try Ledger(path: dir.store)
        let kept = try #require(try OverviewTally.stored(in: ledger))
        #expect(kept.throughSeq == 4_000)
        #expect(kept.recordsRead == 0)

        #expect(CLI.call(["ingest", "--store", dir.store, rest]).status == 0)
        let cache = OverviewCache(saveEvery: 1_000)
        let devices = try ledger.read { try $0.devices() }.sorted()
        for device in devices {
            var (a, b) = (CanonicalWriter(), CanonicalWriter())
            try cache.overview(device: device, ledger: ledger).writeJSON(&a)
            try DeviceOverview.collect(ledger: ledger, device: device).writeJSON(&b)
            #expect(a.bytes == b.bytes, "\(device)")
        }
        // Only the 2,000 records after the kept tally were read.
        #expect(cache.recordsRead == 2_000)
        // The longer tally is kept in its place, on a thread of its own.
        var through: UInt64 = 0
        for _ in 0..<200 where through < 6_000 {
            through = try OverviewTally.stored(in: ledger)?.throughSeq ?? 0
            if through < 6_000 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(through == 6_000)
        try kept.save(to: ledger)
        #expect(try OverviewTally.stored(in: ledger)?.throughSeq == 6_000)
    }

    /// `events` lines of the mixed shape over three devices (a phone, a watch, many stacks).
    static func mixedLines(events: Int, seed: UInt64) throws -> [Substring] {
        var generator = ShapeGenerator(shape: .mixed, events: events, seed: seed)
        generator.devices = 3
        var text = ""
        try generator.writeNDJSON { text += String(decoding: $0, as: UTF8.self) }
        return text.split(separator: "\n")
    }
}

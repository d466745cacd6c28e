import Foundation
import StackLedgerTesting
import Testing

@testable import Ingestion

@Suite("The ids an ingest has seen, spooled as sorted runs")
struct SeenIDRunsTests {
    @Test("ids spooled by two threads in runs of 64 come back merged, in order, every one once")
    func merge() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var rng = SplitMix64(seed: 42)
        var all = [Ingestor.SeenID]()
        var runs = [String]()
        for part in 0..<2 {
            var seen = Ingestor.SeenIDRuns(pathPrefix: dir.path + "/part-\(part)", runLength: 64)
            for line in 0..<1_000 {
                // Few distinct hashes, so that groups of equal hashes span runs.
                let id = Ingestor.SeenID(
                    idHash: rng.next() % 300, input: Int32(part), line: Int32(line + 1), offset: line * 100)
                all.append(id)
                try seen.append(id)
            }
            try seen.flush()
            #expect(seen.paths.count == 16)
            runs += seen.paths
        }
        var merged = [Ingestor.SeenID]()
        try Ingestor.SeenIDRuns.merge(runs) { merged.append($0) }
        #expect(merged.count == all.count)
        #expect(merged.map(\.idHash) == all.sorted().map(\.idHash))
        #expect(merged.map(\.line) == all.sorted().map(\.line))
        #expect(merged.map(\.offset) == all.sorted().map(\.offset))
    }

    @Test("no runs merge to nothing; a run cut short is an error")
    func edges() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        var count = 0
        try Ingestor.SeenIDRuns.merge([]) { _ in count += 1 }
        #expect(count == 0)
        let cut = dir.path + "/cut"
        #expect(FileManager.default.createFile(atPath: cut, contents: Data(repeating: 1, count: 30)))
        #expect(throws: (any Error).self) { try Ingestor.SeenIDRuns.merge([cut]) { _ in } }
    }
}

import Exports
import Forensics
import Foundation
import Importers
import Ingestion
import Ledger
import Projections
import SmartStack
import StackLedgerTesting
import Testing

/// The JSON of `ingest`, `stats`, `verify` and `import`, written by their output types and
/// read here in-process; the subprocess tests keep to exit codes and streams.
@Suite("Output types' JSON")
struct OutputJSONTests {
    func object(_ write: (inout CanonicalWriter) -> Void) throws -> (text: String, keys: [String], value: [String: Any])
    {
        var w = CanonicalWriter()
        write(&w)
        let value = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        // The keys in the order written: the canonical writer keeps its callers' order.
        let keys = value.keys.sorted {
            w.text.range(of: "\"\($0)\":")!.lowerBound < w.text.range(of: "\"\($1)\":")!.lowerBound
        }
        return (w.text, keys, value)
    }

    @Test("ingest's summary: counts, the sequence numbers stored (null when none) and the tool")
    func ingestSummary() throws {
        var summary = IngestSummary()
        summary.stored = 3
        summary.duplicates = 1
        let empty = try object { IngestSummary().writeJSON(&$0, tool: "t") }
        #expect(empty.keys == ["stored", "duplicates", "rejected", "firstSeq", "lastSeq", "tool"])
        #expect(empty.value["firstSeq"] is NSNull && empty.value["lastSeq"] is NSNull)
        (summary.firstSeq, summary.lastSeq) = (7, 9)
        let stored = try object { summary.writeJSON(&$0, tool: "t") }
        #expect(stored.text == #"{"stored":3,"duplicates":1,"rejected":0,"firstSeq":7,"lastSeq":9,"tool":"t"}"#)
    }

    @Test("stats: counts by type and device in key order, the log's and the checkpoints' bytes apart, the head")
    func statistics() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let ledger = try Ledger(path: dir.store)
        var decoder = EventDecoder()
        _ = try ledger.append(
            try workload(300, seed: 4).split(separator: "\n").map { try decoder.decode(String($0)) })
        let stats = try ledger.statistics()
        let json = try object { stats.writeJSON(&$0, tool: "t") }
        #expect(
            json.keys == [
                "events", "byType", "devices", "firstTime", "lastTime", "batches", "fileBytes", "usedBytes", "logBytes",
                "checkpointBytes", "bytesPerEvent", "head", "tool",
            ])
        #expect(json.value["events"] as? Int == 300)
        let byType = try #require(json.value["byType"] as? [String: Int])
        #expect(byType.values.reduce(0, +) == 300)
        let head = try #require(json.value["head"] as? [String: Any])
        #expect(head["seq"] as? Int == 300 && (head["sha256"] as? String)?.count == 64)
    }

    @Test("verify: a store that cannot be read is one problem, with no counts and no head")
    func verification() throws {
        let failed = try object { StoreVerification(failure: "the store cannot be read: x").writeJSON(&$0, tool: "t") }
        #expect(
            failed.text
                == #"{"ok":false,"head":null,"firstBadSeq":null,"problems":["the store cannot be read: x"],"tool":"t"}"#
        )
        let checked = try object {
            StoreVerification(
                ok: true, head: nil, problems: [], firstBadSeq: nil, counts: (5, 1, 2, 9), checkpoints: 3
            ).writeJSON(&$0, tool: "t")
        }
        #expect(
            checked.keys == [
                "ok", "head", "records", "batches", "strings", "indexEntries", "checkpoints", "firstBadSeq", "problems",
                "tool",
            ])
    }

    @Test("import: each file's provenance, counts, span, problems and error, then the files passed over")
    func importReport() throws {
        var file = ImportFileReport(path: "a/knowledgeC.db")
        file.stream = "/app/usage"
        file.events = 2
        file.problems = ["row 3: bad"]
        let json = try object {
            ImportFileReport.writeJSON(
                &$0, format: "knowledgec", files: [file],
                passedOver: [PassedOver(path: "b", reason: "not an artifact")], tool: "t")
        }
        #expect(json.keys == ["format", "files", "passedOver", "tool"])
        let files = try #require(json.value["files"] as? [[String: Any]])
        #expect(files.count == 1 && files[0]["stream"] as? String == "/app/usage" && files[0]["link"] is NSNull)
        #expect(files[0]["events"] as? Int == 2 && files[0]["problems"] as? [String] == ["row 3: bad"])
        #expect(json.text.contains(#""passedOver":[{"path":"b","reason":"not an artifact"}]"#))
    }

    @Test("rebuild: devices, events, seconds to the millisecond, the checkpoints, then the policy and tool")
    func rebuildSummary() throws {
        let json = try object {
            RebuildSummary(devices: 2, events: 100, seconds: 1.23456, checkpoints: 3, checkpointBytes: 4096)
                .writeJSON(&$0, policy: Policy(), tool: "t")
        }
        #expect(Array(json.keys.prefix(5)) == ["devices", "events", "seconds", "checkpoints", "checkpointBytes"])
        #expect(json.value["seconds"] as? Double == 1.235 && json.value["tool"] as? String == "t")
        #expect(json.value["policy"] != nil)
    }

    @Test("a timeline's sidecar: what made it, the interval, the lines of each kind (zero included), the arguments")
    func timelineSidecar() throws {
        let json = try object {
            TimelineSidecar(
                policy: Policy(), tool: "t", context: TimelineContext(policy: Policy(), chainHead: nil),
                exportedAt: Timestamp(microseconds: 0), format: "timesketch", file: "x.jsonl", devices: ["d"], from: 0,
                to: 1_000_000, lines: [.event: 4], verified: true, arguments: ["export", "timeline"]
            ).writeJSON(&$0)
        }
        #expect(json.value["chainHead"] is NSNull && json.value["devices"] as? [String] == ["d"])
        let lines = try #require(json.value["lines"] as? [String: Int])
        #expect(lines.count == TimelineRow.Kind.allCases.count && lines.values.reduce(0, +) == 4)
        #expect(
            json.value["arguments"] as? [String] == ["export", "timeline"] && json.value["verified"] as? Bool == true)
    }
}

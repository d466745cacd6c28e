import Foundation
import StackLedgerTesting
import Testing

/// `why --format case` and `export timeline --format case`: checked by case-utils'
/// `case_validate`, and by a SPARQL query (`case_sparql_select`) that must find the tool
/// and its policy, an artifact with its SHA-256, a provenance record of an event, the
/// conclusion, a reason with its basis and the chain head, joined in one row.
@Suite("CASE/UCO bundles")
struct CaseBundleTests {
    static let tools = Fixtures.repositoryRoot + "/.build/pyenv/bin/"

    static let query = """
        PREFIX case-investigation: <https://ontology.caseontology.org/case/investigation/>
        PREFIX uco-action: <https://ontology.unifiedcyberontology.org/uco/action/>
        PREFIX uco-configuration: <https://ontology.unifiedcyberontology.org/uco/configuration/>
        PREFIX uco-core: <https://ontology.unifiedcyberontology.org/uco/core/>
        PREFIX uco-observable: <https://ontology.unifiedcyberontology.org/uco/observable/>
        PREFIX uco-tool: <https://ontology.unifiedcyberontology.org/uco/tool/>
        PREFIX uco-types: <https://ontology.unifiedcyberontology.org/uco/types/>
        SELECT ?toolName ?digest ?path ?hashMethod ?exhibit ?eventType ?basis ?conclusion ?head
        WHERE {
          ?action a case-investigation:InvestigativeAction ;
            uco-action:instrument ?configured ;
            uco-action:object ?file ;
            uco-action:result ?conclusionNote, ?reasonNote, ?headNote, ?provenance .
          ?configured a uco-tool:ConfiguredTool ;
            uco-configuration:isConfigurationOf ?tool ;
            uco-configuration:usesConfiguration ?configuration .
          ?tool a uco-tool:AnalyticTool ; uco-core:name ?toolName ; uco-tool:version ?version .
          ?configuration uco-configuration:configurationEntry ?entry .
          ?entry uco-configuration:itemName "policyDigest" ; uco-configuration:itemValue ?digest .
          ?file a uco-observable:File ; uco-core:hasFacet ?fileFacet, ?contentFacet .
          ?fileFacet uco-observable:filePath ?path .
          ?contentFacet uco-observable:hash ?hash .
          ?hash uco-types:hashMethod ?hashMethod ; uco-types:hashValue ?hashValue .
          ?provenance a case-investigation:ProvenanceRecord ;
            case-investigation:exhibitNumber ?exhibit ;
            uco-core:object ?record, ?file .
          ?record a uco-observable:EventRecord ; uco-core:hasFacet ?eventFacet .
          ?eventFacet uco-observable:eventType ?eventType .
          ?conclusionNote uco-core:tag ?conclusionTag ; uco-core:statement ?conclusion .
          ?reasonNote uco-core:tag "reason", ?basis .
          ?headNote uco-core:tag "chain-head" ; uco-core:statement ?head .
          FILTER (?conclusionTag IN ("conclusion", "decision"))
          FILTER (STRSTARTS(?basis, "basis:"))
        }
        ORDER BY ?exhibit ?basis
        LIMIT 1
        """

    /// Validates `bundle` and runs the query over it: the one row, as CSV.
    func check(_ bundle: String, _ dir: WorkDirectory) throws -> String {
        let validate = try CLI.run(executable: Self.tools + "case_validate", [bundle])
        #expect(validate.status == 0 && validate.stdout.contains("Conforms: True"), "\(validate.stdout)")
        let query = try dir.write("query.sparql", Self.query)
        let table = dir.file("row.csv")
        let select = try CLI.run(
            executable: Self.tools + "case_sparql_select", ["--disallow-empty-results", table, query, bundle])
        #expect(select.status == 0, "\(select.stderr)")
        return try String(contentsOfFile: table, encoding: .utf8)
    }

    @Test("why --format case validates, and the query finds every part of the answer's provenance")
    func why() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        let r = CLI.call([
            "why", "--store", dir.store, "--device", "phone", "--stack", "STACK-1", "--at", "2021-11-02T10:25:00Z",
            "--widget", "com.apple.mobileslideshow.PhotosReliveWidget", "--format", "case",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let bundle = try dir.write("why.jsonld", r.stdout)
        let row = try check(bundle, dir)
        #expect(row.contains("StackLedger"), "\(row)")
        // The device's records the answer cites: PowerLog's on-screen records and the Duet
        // expert store's rotations and taps.
        #expect(row.contains("CurrentPowerlog.PLSQL") || row.contains("_ATXInfoSuggestionStore.db"))
        #expect(
            row.contains(",SHA256,")
                && (row.contains("stack.observed") || row.contains("stack.rotated") || row.contains("widget.tapped")),
            "\(row)")
        #expect(row.contains("basis:policy") || row.contains("basis:documented"))
        #expect(row.contains("smartstack-1 model, at 2021-11-02T10:25:00Z, stack STACK-1") && row.contains("seq "))
        // The same answer gives the same bundle, byte for byte.
        let again = CLI.call([
            "why", "--store", dir.store, "--device", "phone", "--stack", "STACK-1", "--at", "2021-11-02T10:25:00Z",
            "--widget", "com.apple.mobileslideshow.PhotosReliveWidget", "--format", "case",
        ])
        #expect(again.stdout == r.stdout)
    }

    @Test("export timeline --format case validates, and the query finds a decision with its reasons and provenance")
    func timeline() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        try TimelineExportTests().store(dir)
        let bundle = dir.file("timeline.jsonld")
        let r = CLI.call(["export", "timeline", "--store", dir.store, "--format", "case", "--out", bundle])
        #expect(r.status == 0, "\(r.stderr)")
        let row = try check(bundle, dir)
        #expect(row.contains("_ATXInfoSuggestionStore.db") || row.contains("CurrentPowerlog.PLSQL"), "\(row)")
        #expect(row.contains("smartstack-1 model"), "\(row)")
        // The sidecar counts what the bundle holds: the decisions and disagreements the
        // Timesketch timeline of the same store has, and no events or observations.
        let sketch = dir.file("timeline.jsonl")
        #expect(
            CLI.call(["export", "timeline", "--store", dir.store, "--format", "timesketch", "--out", sketch]).status
                == 0)
        let lines = try [bundle, sketch].map { path in
            let data = try Data(contentsOf: URL(fileURLWithPath: path + ".meta.json"))
            let meta = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(meta["lines"] as? [String: Int])
        }
        #expect((lines[0]["decision"] ?? 0) > 0 && lines[0]["decision"] == lines[1]["decision"], "\(lines)")
        #expect(lines[0]["disagreement"] == lines[1]["disagreement"] && lines[0]["event"] == 0, "\(lines)")
    }
}

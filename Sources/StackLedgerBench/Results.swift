import Foundation

/// Benchmark rows: the median time of each measurement and its rate.
struct Results {
    struct Row {
        var name: String
        var items: Int
        var seconds: [Double]
        var median: Double { seconds.sorted()[seconds.count / 2] }
        var rate: Double { Double(items) / median }
    }

    var events: Int
    var ndjsonBytes: Int
    var bytesPerEvent = 0.0
    var rows: [Row] = []

    mutating func add(_ name: String, _ items: Int, _ seconds: [Double]) {
        guard !seconds.isEmpty else { return }
        rows.append(Row(name: name, items: items, seconds: seconds))
        let row = rows.last!
        FileHandle.standardError.write(Data("bench: \(name): \(Int(row.rate)) events/s (median of \(seconds.count))\n".utf8))
    }

    func rate(_ prefix: String) -> Double? { rows.first { $0.name.hasPrefix(prefix) }?.rate }

    var ratios: [(String, Double?)] {
        [("append / plain C LMDB loop of the log and index puts alone, same map growth (target >= 0.70)", ratio("append pre-built", "append same log")),
         ("append / SQLite (target >= 2)", ratio("append pre-built", "store same records")),
         ("NDJSON decode / JSONDecoder decode, one core each", ratio("decode (StackLedger", "decode (Foundation JSONDecoder, typed Decodable model), one core")),
         ("ingest (both cores) / JSONDecoder decode, one core", ratio("ingest NDJSON", "decode (Foundation JSONDecoder, typed Decodable model), one core")),
         ("ingest / JSONDecoder decode, both cores each (target >= 2)", ratio("ingest NDJSON", "decode (Foundation JSONDecoder, typed Decodable model), both cores")),
         ("bytes per event / NDJSON bytes per event (target <= 1)", bytesPerEvent / (Double(ndjsonBytes) / Double(events)))]
    }

    func ratio(_ a: String, _ b: String) -> Double? {
        guard let x = rate(a), let y = rate(b) else { return nil }
        return x / y
    }

    func print(json: Bool) {
        if json {
            var members = rows.map { #"{"name":"\#($0.name)","events":\#($0.items),"medianSeconds":\#($0.median),"eventsPerSecond":\#(Int($0.rate))}"# }
            members = ["[" + members.joined(separator: ",") + "]"]
            let ratioText = ratios.map { #""\#($0.0)":\#($0.1.map { String(format: "%.3f", $0) } ?? "null")"# }.joined(separator: ",")
            Swift.print(#"{"events":\#(events),"ndjsonBytes":\#(ndjsonBytes),"bytesPerEvent":\#(String(format: "%.1f", bytesPerEvent)),"rows":\#(members[0]),"ratios":{\#(ratioText)}}"#)
            return
        }
        Swift.print("workload: \(events) events, \(String(format: "%.1f", Double(ndjsonBytes) / Double(events))) NDJSON bytes/event")
        Swift.print("| measurement | median s | events/s |")
        Swift.print("|---|---:|---:|")
        for r in rows { Swift.print("| \(r.name) | \(String(format: "%.3f", r.median)) | \(Int(r.rate)) |") }
        Swift.print("")
        Swift.print("bytes on disk per event: \(String(format: "%.1f", bytesPerEvent))")
        // A ratio whose measurements were not asked for (--only) prints no line.
        for (name, value) in ratios { if let value { Swift.print("\(name): \(String(format: "%.2f", value))") } }
    }
}

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
        FileHandle.standardError.write(
            Data("bench: \(name): \(Int(row.rate)) events/s (median of \(seconds.count))\n".utf8))
    }

    func rate(_ prefix: String) -> Double? { rows.first { $0.name.hasPrefix(prefix) }?.rate }

    /// A ratio between two rows, and its target where it has one.
    struct Ratio {
        enum Target {
            case atLeast(Double)
            case atMost(Double)
        }
        var name: String
        var value: Double?
        var target: Target?

        var verdict: String {
            guard let value, let target else { return "" }
            switch target {
            case .atLeast(let t):
                return value >= t ? " (target >= \(t.formatted2): met)" : " (target >= \(t.formatted2): NOT MET)"
            case .atMost(let t):
                return value <= t ? " (target <= \(t.formatted2): met)" : " (target <= \(t.formatted2): NOT MET)"
            }
        }
    }

    var ratios: [Ratio] {
        let oneCore = "decode (Foundation JSONDecoder, typed Decodable model), one core"
        let bothCores = "decode (Foundation JSONDecoder, typed Decodable model), both cores"
        return [
            Ratio(
                name: "append / plain C LMDB loop of the log and index puts alone, same map growth",
                value: ratio("append pre-built", "append same log"), target: .atLeast(0.7)),
            Ratio(name: "append / SQLite", value: ratio("append pre-built", "store same records"), target: .atLeast(2)),
            Ratio(
                name: "NDJSON decode / JSONDecoder decode, one core each", value: ratio("decode (StackLedger", oneCore)),
            Ratio(name: "ingest (both cores) / JSONDecoder decode on one core", value: ratio("ingest NDJSON", oneCore)),
            Ratio(
                name: "ingest / JSONDecoder decode, both cores each", value: ratio("ingest NDJSON", bothCores),
                target: .atLeast(2)),
            Ratio(
                name: "bytes per event / NDJSON bytes per event",
                value: bytesPerEvent / (Double(ndjsonBytes) / Double(events)), target: .atMost(1)),
        ]
    }

    func ratio(_ a: String, _ b: String) -> Double? {
        guard let x = rate(a), let y = rate(b) else { return nil }
        return x / y
    }

    func print(json: Bool) {
        if json {
            var members = rows.map {
                #"{"name":"\#($0.name)","events":\#($0.items),"medianSeconds":\#($0.median),"eventsPerSecond":\#(Int($0.rate))}"#
            }
            members = ["[" + members.joined(separator: ",") + "]"]
            let ratioText = ratios.compactMap { r in r.value.map { #""\#(r.name)":\#(String(format: "%.3f", $0))"# } }
                .joined(separator: ",")
            Swift.print(
                #"{"events":\#(events),"ndjsonBytes":\#(ndjsonBytes),"bytesPerEvent":\#(String(format: "%.1f", bytesPerEvent)),"rows":\#(members[0]),"ratios":{\#(ratioText)}}"#
            )
            return
        }
        Swift.print(
            "workload: \(events) events, \(String(format: "%.1f", Double(ndjsonBytes) / Double(events))) NDJSON bytes/event"
        )
        Swift.print("| measurement | median s | events/s |")
        Swift.print("|---|---:|---:|")
        for r in rows { Swift.print("| \(r.name) | \(String(format: "%.3f", r.median)) | \(Int(r.rate)) |") }
        Swift.print("")
        Swift.print("bytes on disk per event: \(String(format: "%.1f", bytesPerEvent))")
        // A ratio whose measurements were not asked for (--only) prints no line.
        for r in ratios {
            if let value = r.value { Swift.print("\(r.name): \(String(format: "%.2f", value))\(r.verdict)") }
        }
    }
}

extension Double {
    /// The value with at most two decimals, trailing zeros dropped (0.7, 2).
    fileprivate var formatted2: String {
        var text = String(format: "%.2f", self)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

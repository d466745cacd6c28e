import Foundation

/// Writes a dense Biome tree of SEGB v2 files (1 MiB each, like the files devices write),
/// alternating App.Intent donations and App.RelevantShortcuts sets, for benchmarks.
public struct BiomeTreeGenerator {
    /// Totals of what was written.
    public struct Totals: Sendable {
        public var files = 0
        public var records = 0
        public var payloadBytes = 0
    }

    let directory: String
    var random: SplitMix64

    /// Creates a generator writing under `directory` (which becomes `.../streams`).
    public init(directory: String, seed: UInt64 = 1) {
        self.directory = directory
        random = SplitMix64(seed: seed)
    }

    /// Writes files until `bytes` of file space is used.
    public mutating func write(bytes: Int) throws -> Totals {
        var totals = Totals()
        var time = 816_854_400.0
        let fileSize = 1 << 20
        var index = 0
        while totals.files * fileSize < bytes {
            let intents = index % 2 == 0
            var w = SEGBWriter(version: 2, created: time)
            var used = 32
            while true {
                let payloads = intents ? [intentPayload(time: time, n: totals.records)] : shortcutSet(time: time)
                let size = payloads.reduce(0) { $0 + ($1.count + 8 + 3) / 4 * 4 + 16 }
                if used + size > fileSize { break }
                for p in payloads {
                    w.records.append(.init(time: time, payload: p))
                    totals.records += 1
                    totals.payloadBytes += p.count
                }
                used += size
                time += 37
            }
            let stream = intents ? "App.Intent" : "App.RelevantShortcuts"
            let dir = "\(directory)/restricted/\(stream)/local"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Data(w.bytes(fileSize: fileSize)).write(to: URL(fileURLWithPath: "\(dir)/\(Int64(time * 1e6))"))
            totals.files += 1
            index += 1
        }
        return totals
    }

    private mutating func intentPayload(time: Double, n: Int) -> [UInt8] {
        let app = "com.example.app\(random.next() % 40)"
        let intent = "Intent\(random.next() % 25)"
        // INInteraction archives with their intent's backing store run to a few kilobytes.
        return BiomePayloads.appIntent(
            app: app, intentClass: intent, verb: "Open", start: time, end: time + 1,
            identifier: "donation-\(n)", groupIdentifier: n % 3 == 0 ? "group-\(n % 11)" : nil,
            padding: 600 + Int(random.next() % 1400))
    }

    private mutating func shortcutSet(time: Double) -> [[UInt8]] {
        let app = "com.example.app\(random.next() % 40)"
        var set = [[UInt8]]()
        for i in 0..<3 {
            let start: Double = time + Double(i) * 3600
            let window = BiomePayloads.Provider.date(start: start, end: start + 3600)
            let routine = BiomePayloads.Provider.dailyRoutine(Int64(i))
            let intent: String? = i == 0 ? nil : "ShowIntent\(i)"
            set.append(
                BiomePayloads.relevantShortcut(
                    app: app, widgetKind: "Widget\(i)", role: Int64(i % 2), intentClass: intent,
                    providers: [window, routine]))
        }
        return set
    }
}

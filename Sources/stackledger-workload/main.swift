import ArgumentParser
import SmartStack
import StackLedgerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a synthetic StackLedger workload as NDJSON to standard output.
struct Workload: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackledger-workload",
        abstract: "Generate synthetic inputs: an event log, a Biome SEGB tree, a knowledgeC database.",
        subcommands: [EventLog.self, BiomeTree.self, KnowledgeCSQL.self],
        defaultSubcommand: EventLog.self)
}

/// Writes a synthetic StackLedger workload as NDJSON to standard output.
struct EventLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Write a realistic synthetic event log (NDJSON, canonical form) to standard output.")

    @Option(help: "How many events.") var events = 100_000
    @Option(help: "How many devices (default: 4, or the shape's own number).") var devices: Int?
    @Option(help: "Apps per device.") var apps = 8
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Percent of events delivered late.") var latePercent = 2
    @Flag(help: "Leave out event ids.") var noIds = false
    @Option(
        help: """
            The shape of device: standard (the generated workload, with --devices and --apps), \
            or \(ShapeGenerator.Shape.allCases.map(\.rawValue).joined(separator: ", ")) \
            (docs/performance.md, "Shapes").
            """)
    var shape = "standard"

    func validate() throws {
        guard shape == "standard" || ShapeGenerator.Shape(rawValue: shape) != nil else {
            throw ValidationError("unknown shape '\(shape)'")
        }
    }

    func run() throws {
        if let named = ShapeGenerator.Shape(rawValue: shape) {
            var generator = ShapeGenerator(shape: named, events: events, seed: seed)
            if let devices { generator.devices = devices }
            try generator.writeNDJSON { writeToStandardOutput($0) }
            return
        }
        var config = WorkloadGenerator.Configuration()
        config.events = events
        config.devices = devices ?? 4
        config.appsPerDevice = apps
        config.seed = seed
        config.latePercent = latePercent
        config.ids = !noIds
        var generator = WorkloadGenerator(config)
        generator.writeNDJSON { writeToStandardOutput($0) }
    }

    private func writeToStandardOutput(_ buffer: [UInt8]) {
        var done = 0
        buffer.withUnsafeBytes { raw in
            while done < raw.count {
                let n = write(1, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { break }
                done += n
            }
        }
    }
}

/// Writes a dense Biome tree of SEGB files.
struct BiomeTree: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biome-tree",
        abstract: "Write a dense Biome streams/ tree of 1 MiB SEGB v2 files (App.Intent and App.RelevantShortcuts).")

    @Option(help: "Megabytes of files to write.") var megabytes = 1024
    @Option(help: "The streams/ directory to write.") var out: String
    @Option(help: "Random seed.") var seed: UInt64 = 1

    func run() throws {
        var generator = BiomeTreeGenerator(directory: out, seed: seed)
        let totals = try generator.write(bytes: megabytes << 20)
        print("files \(totals.files) records \(totals.records) payloadBytes \(totals.payloadBytes)")
    }
}

/// Prints the SQL of a generated knowledgeC database.
struct KnowledgeCSQL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "knowledgec-sql",
        abstract: "Print SQL that builds a knowledgeC.db in the iOS shape (pipe it into sqlite3).")

    @Option(help: "Rows of ZOBJECT.") var rows = 1_000_000

    func run() {
        print("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;")
        print(KnowledgeCFixture.schema + KnowledgeCFixture.bulkRows(rows, start: 816_854_400))
        print("COMMIT;")
    }
}

Workload.main()

import ArgumentParser
import StackLedgerTesting
import SmartStack
#if canImport(Glibc)
import Glibc
#endif

/// Writes a synthetic StackLedger workload as NDJSON to standard output.
struct Workload: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackledger-workload",
        abstract: "Write a realistic synthetic event log (NDJSON, canonical form) to standard output.")

    @Option(help: "How many events.") var events = 100_000
    @Option(help: "How many devices.") var devices = 4
    @Option(help: "Apps per device.") var apps = 8
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Percent of events delivered late.") var latePercent = 2
    @Flag(help: "Leave out event ids.") var noIds = false

    func run() throws {
        var config = WorkloadGenerator.Configuration()
        config.events = events
        config.devices = devices
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

Workload.main()

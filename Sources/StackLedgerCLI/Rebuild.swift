import ArgumentParser
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack
import Synchronization

struct Rebuild: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay every device's log and store the engine's checkpoints for the policy in force.",
        discussion: """
            Queries make and keep checkpoints as they go; after a large ingest or import, this \
            makes them all at once, on every core, so that every later answer is a seek and a \
            short fold. The checkpoints of the policy in force are dropped and made again; the \
            log is not touched.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(
        name: .customLong("policy"),
        help: ArgumentHelp("Override policy parameters from a JSON file.", valueName: "file")) var policyFile: String?
    @Option(help: "Threads that fold devices at once (default: the machine's cores).") var threads: Int?
    @Option(
        help: ArgumentHelp(
            "Events of a device between two checkpoints, at least.",
            discussion: """
                Fewer events make every later answer's fold shorter (a served store's answers \
                faster) at the cost of more checkpoint bytes.
                """, valueName: "events")) var checkpointEvery = Projector.defaultCheckpointInterval
    @Option(
        help: ArgumentHelp(
            "The most a device's checkpoints may take of its log's bytes, in percent (default 12; 0: no bound).",
            discussion: """
                A checkpoint of S bytes is followed by the next only once the device's log \
                has grown by S divided by this share, so that a device whose state is large \
                against its events (many stacks) keeps its checkpoints farther apart.
                """, valueName: "percent")) var checkpointShare = Projector.defaultCheckpointShare * 100
    @Flag(help: "Print the summary as JSON.") var json = false

    func validate() throws {
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be from 1 to 256 (it is \(threads))")
        }
        guard (16...1_048_576).contains(checkpointEvery) else {
            throw ValidationError("--checkpoint-every must be from 16 to 1048576 events (it is \(checkpointEvery))")
        }
        guard checkpointShare.isFinite, (0...100).contains(checkpointShare) else {
            throw ValidationError("--checkpoint-share must be a percent from 0 to 100 (it is \(checkpointShare))")
        }
    }

    func run() throws {
        let policy = try loadPolicy(policyFile)
        try requireStore(storeOptions)
        let ledger = try openLedger(storeOptions, readOnly: false)
        guard ledger.canWriteDerived else {
            throw fail(
                "the store at \(storeOptions.path) cannot be written; checkpoints cannot be saved",
                code: ExitCodes.ioError)
        }
        do {
            _ = try withLedgerErrors { try QuickCheckGate(ledger: ledger).admit(force: false) }
        } catch let refusal as QuickCheckGate.Refusal {
            throw fail(refusal.message, code: ExitCodes.ioError)
        }
        let (devices, events) = try withLedgerErrors {
            try ledger.read { r in
                let devices = try r.devices()
                return (devices.count, try devices.reduce(0) { $0 + (try r.eventCount(device: $1)) })
            }
        }
        if events == 0 {
            // Say why nothing is made: an ingest validates all its input before it commits.
            printError(
                "the store holds no events yet, so there is nothing to fold; an ingest under way stores its events only once it has validated them all: rebuild after it ends"
            )
        }
        let progress = stderrIsTerminal ? RebuildProgress(events: events) : nil
        var tell: (@Sendable (Int) -> Void)?
        if let progress { tell = { progress.update($0) } }
        let start = Date()
        let folded = try withLedgerErrors {
            try Projector.rebuild(
                ledger: ledger, policy: policy, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                checkpointInterval: checkpointEvery, checkpointShare: checkpointShare > 0 ? checkpointShare / 100 : nil,
                progress: tell)
        }
        progress?.finish()
        // The tally `serve`'s overviews are made from, kept beside the checkpoints.
        try withLedgerErrors {
            let last = try ledger.read { try $0.lastSeq() }
            var tally = OverviewTally()
            if let kept = try OverviewTally.stored(in: ledger), kept.throughSeq <= last { tally = kept }
            try tally.extend(ledger, through: last)
            try tally.save(to: ledger)
        }
        let seconds = Date().timeIntervalSince(start)
        let footprint = try withLedgerErrors { try Projector(ledger: ledger, policy: policy).checkpointFootprint() }
        var out = StandardOutput()
        if json {
            var w = CanonicalWriter()
            RebuildSummary(
                devices: devices, events: folded, seconds: seconds, checkpoints: footprint.count,
                checkpointBytes: footprint.bytes
            ).writeJSON(&w, policy: policy, tool: StackLedgerCommand.toolVersion)
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            let rate = seconds > 0 ? Int(Double(folded) / seconds) : folded
            out.write(
                "rebuilt the checkpoints of \(devices) device\(devices == 1 ? "" : "s") (policy \(policy.name) v\(Policy.version) \(policy.digest)): "
                    + "\(folded) events in \(String(format: "%.1f", seconds)) s (\(rate) events/s); "
                    + "\(footprint.count) checkpoints, \(footprint.bytes) bytes\n")
        }
        out.flush()
    }
}

/// The progress line of a rebuild, told from its folding threads.
private final class RebuildProgress: Sendable {
    private let events: Int
    private let last = Mutex<Date>(.distantPast)

    init(events: Int) { self.events = events }

    func update(_ folded: Int) {
        let now = Date()
        let due = last.withLock { last in
            guard now.timeIntervalSince(last) >= 0.2 else { return false }
            last = now
            return true
        }
        if due { printProgress("folded \(folded) of \(events) events") }
    }

    func finish() { printProgress("") }
}

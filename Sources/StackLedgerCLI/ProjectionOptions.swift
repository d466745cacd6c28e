import ArgumentParser
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack

/// The options `state`, `replay` and `why` share.
struct ProjectionOptions: ParsableArguments {
    @Option(help: "The device (required when the store holds several).") var device: String?
    @Option(
        name: .customLong("policy"),
        help: ArgumentHelp("Override policy parameters from a JSON file.", valueName: "file")) var policyFile: String?
    @Option(
        name: .customLong("known-at"),
        help: "What the device knew at this time: only events dated at or before it count.",
        transform: TimeArgument.parse) var knownAt: TimeArgument?
    @Option(
        name: .customLong("as-recorded-at"),
        help: "What this store held at this time: only the log recorded by then counts.", transform: TimeArgument.parse)
    var asRecordedAt: TimeArgument?
    @Flag(help: "Answer even if the store fails its quick check (the answer says it is unverified).") var force = false
    @Option(
        name: .customLong("expect-head"),
        help: ArgumentHelp(
            "Refuse a store whose chain does not hold this recorded head (\"seq N sha256:H\", as verify prints it).",
            valueName: "head")) var expectHead: String?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
    }

    /// The policy in force.
    func policy() throws -> Policy { try loadPolicy(policyFile) }

    /// The view of the log the query asks for.
    func query() throws -> ProjectionQuery {
        ProjectionQuery(
            knownAt: knownAt?.timestamp,
            asRecordedAt: asRecordedAt?.timestamp)
    }
}

/// The default policy, or the one with the overrides in `file` (exit 64 naming the problem).
func loadPolicy(_ file: String?) throws -> Policy {
    guard let file else { return Policy() }
    do {
        return try Policy.load(overridesAt: file)
    } catch let error as PolicyError {
        // A file that cannot be read is an I/O error; one that is read and wrong is bad input.
        throw fail("--policy \(error)", code: error.unreadable ? ExitCodes.ioError : ExitCodes.dataError)
    }
}

/// The store opened for queries: for writing when it can, so that checkpoints are kept,
/// else read-only.
func openForQueries(_ store: StoreOptions) throws -> Ledger {
    try requireStore(store)
    if let writable = try? Ledger(path: store.path, options: store.ledgerOptions(readOnly: false)) { return writable }
    return try openLedger(store, readOnly: true)
}

/// An opened store ready for queries: quick-checked, its device chosen.
struct QuerySession {
    let ledger: Ledger
    let projector: Projector
    let device: String
    /// The devices the query covers: `--device`, or with `allDevices` and no `--device`,
    /// every device of the store.
    let devices: [String]
    let verified: Bool

    /// Opens the store (for writing when it can, so checkpoints are kept), runs the quick
    /// check, and resolves the device. `allDevices`: without `--device`, the query covers
    /// every device rather than requiring one.
    init(store: StoreOptions, options: ProjectionOptions, allDevices: Bool = false) throws {
        let policy = try options.policy()
        let ledger = try openForQueries(store)
        self.ledger = ledger
        if let expected = options.expectHead, let wrong = try expectedHeadProblem(expected, ledger: ledger) {
            throw fail("--expect-head: \(wrong)", code: ExitCodes.ioError)
        }
        let projector = Projector(ledger: ledger, policy: policy)
        do {
            verified = try withLedgerErrors {
                try QuickCheckGate(ledger: ledger).admit(force: options.force, projector: projector)
            }.isVerified
        } catch let refusal as QuickCheckGate.Refusal {
            throw fail("\(refusal.message), or pass --force to answer anyway", code: ExitCodes.ioError)
        }
        if stderrIsTerminal {
            let progress = FoldProgress { device in try? ledger.read { try $0.eventCount(device: device) } }
            projector.onFoldProgress = { progress.update(device: $0, records: $1, done: $2) }
        }
        self.projector = projector
        let stored = try withLedgerErrors { try projector.devices() }
        switch DeviceChoice.of(options.device, among: stored, allDevices: allDevices) {
        case .chosen(let devices):
            device = devices[0]
            self.devices = devices
        case .unknown(let d, let holds):
            throw fail(
                "--device \(d.shown): the store has no events of that device; it holds: \(DeviceList.some(holds.map(\.shown)))",
                code: ExitCodes.usage)
        case .empty:
            throw fail("the store holds no events; ingest some first", code: ExitCodes.usage)
        case .several(let holds):
            throw fail(
                "the store holds several devices; pass --device with one of: \(DeviceList.some(holds.map(\.shown)))",
                code: ExitCodes.usage)
        }
    }
}

/// `"check"` beside `"verified"` in an answer: which check the answer rests on, over which
/// sequence numbers. Only `stackledger verify` checks every record, index and checkpoint.

/// Checks a chain head an examiner recorded earlier (`seq N sha256:H`, as `verify` prints
/// it): the store's chain must hold a batch ending at N with hash H. A store rolled back
/// to an older copy, or rewritten, fails; nil when it holds, else the problem.
func expectedHeadProblem(_ text: String, ledger: Ledger) throws -> String? {
    let parts = text.split(separator: " ")
    guard parts.count == 3, parts[0] == "seq", let seq = UInt64(parts[1]), parts[2].hasPrefix("sha256:") else {
        throw ValidationError(
            "--expect-head \(text.shown): give the head as verify prints it, e.g. \"seq 120 sha256:9f...\"")
    }
    let hash = String(parts[2].dropFirst("sha256:".count))
    guard let head = try withLedgerErrors({ try ledger.chainHead(endingAt: seq) }) else {
        return
            "the store's chain has no batch ending at seq \(seq): it is not the store whose head was recorded (rolled back, or another store)"
    }
    guard head.hashHex == hash.lowercased() else {
        return
            "the store's chain at seq \(seq) has sha256:\(head.hashHex), not the recorded sha256:\(hash): the log up to there was changed"
    }
    return nil
}

/// A progress line on standard error for folds that take a while (a first answer on a
/// store without checkpoints, a what-if from early in the log): shown once a fold has
/// gone on for 0.3 s, rewritten at most every 0.2 s, and cleared when the fold ends,
/// before anything is printed on standard output.
final class FoldProgress {
    private var started: Date?
    private var shown = false
    private var last = Date.distantPast
    /// How many events a device has in the log, asked once a line is shown.
    private let eventCount: (String) -> Int?
    private var counted: (device: String, events: Int?)?

    init(eventCount: @escaping (String) -> Int?) { self.eventCount = eventCount }

    /// Notes that a fold of `device` has read `records` records; `done` at its end.
    func update(device: String, records: Int, done: Bool) {
        if done {
            if shown { printProgress("") }
            (started, shown) = (nil, false)
            return
        }
        let now = Date()
        let since = started ?? now
        started = since
        guard now.timeIntervalSince(since) >= 0.3, now.timeIntervalSince(last) >= 0.2 else { return }
        last = now
        shown = true
        if counted?.device != device { counted = (device, eventCount(device)) }
        printProgress(
            "replaying \(device)'s log: \(records)" + (counted?.events.map { " of its \($0)" } ?? "") + " events")
    }
}

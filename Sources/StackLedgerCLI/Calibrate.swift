import ArgumentParser
import Forensics
import Ledger
import Projections
import SmartStack

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Fit the policy's undocumented parameters to the device's own records, and measure the fit on records held out.",
        discussion: """
            Searches each parameter named (default: \(PolicyParameters.calibratedByDefault.joined(separator: ", "))) \
            over the values `stackledger policy --json` lists under "ranges", for those under which the model agrees \
            with the most records of the device's own that say which widget was on top (stack.rotated, top-scope \
            stack.observed, recorded taps, selections). Apple's documented rules are never fitted. The last \
            --holdout of the interval is never used to fit: the report gives the agreement on it before and after, \
            with 95 % Wilson intervals. The fitted policy, named \(Policy.fittedName), is StackLedger's model fitted \
            to one device, not Apple's algorithm; pass it to any command with --policy.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(
        help: "The start of the interval whose records are used (default: the device's first event).",
        transform: TimeArgument.parse) var from: TimeArgument?
    @Option(help: "The end of the interval (default: the device's last event).", transform: TimeArgument.parse)
    var to: TimeArgument?
    @Option(
        help: ArgumentHelp(
            "The parameters to fit, joined with commas (default: \(PolicyParameters.calibratedByDefault.joined(separator: ","))).",
            valueName: "names")) var parameters: String?
    @Option(help: "The share of the interval, at its end, kept out of the fit to measure it (0 to 0.9).")
    var holdout = 0.3
    @Option(help: "Draws the order in which the search visits the parameters.") var seed: UInt64 = 1
    @Option(help: "The longest the search runs, in seconds.") var budget = 60.0
    @Option(help: ArgumentHelp("Where to write the fitted policy (JSON).", valueName: "file")) var out: String
    @OptionGroup var options: ProjectionOptions

    func validate() throws {
        guard holdout >= 0, holdout <= 0.9 else {
            throw ValidationError("--holdout \(holdout): give a share from 0 to 0.9 of the interval to hold out")
        }
        guard budget >= 1, budget <= 86_400 else {
            throw ValidationError("--budget \(budget): give 1 second to a day (86400)")
        }
        guard options.knownAt == nil, options.asRecordedAt == nil else {
            throw ValidationError("--known-at and --as-recorded-at do not apply: calibration fits on the whole log")
        }
        _ = try ranges()
        if let from, let to, from.timestamp.microseconds >= to.timestamp.microseconds {
            throw ValidationError("--from \(from.text) is not before --to \(to.text)")
        }
    }

    /// The ranges of the parameters named, in the order `policy --json` lists them.
    func ranges() throws -> [CalibrationRange] {
        let all = PolicyParameters.calibrationRanges
        let names = parameters.map { $0.split(separator: ",").map(String.init) } ?? PolicyParameters.calibratedByDefault
        for name in names where !all.contains(where: { $0.name == name }) {
            throw ValidationError(
                "--parameters \(name.shown): not a parameter calibration may fit; `stackledger policy --json` lists them under \"ranges\" (documented rules are never fitted)"
            )
        }
        guard !names.isEmpty else { throw ValidationError("--parameters: name at least one parameter") }
        return all.filter { names.contains($0.name) }
    }

    func run() throws {
        let session = try QuerySession(store: storeOptions, options: options)
        let span = try withLedgerErrors { try session.ledger.read { try $0.eventSpan(device: session.device) } }
        guard let span else {
            throw fail("the store holds no events of \(session.device.shown)", code: ExitCodes.usage)
        }
        var calibration = Calibrator.Options(
            device: session.device, from: from?.timestamp.microseconds ?? span.first,
            to: to?.timestamp.microseconds ?? span.last, parameters: try ranges())
        calibration.holdout = holdout
        calibration.seed = seed
        calibration.budget = .milliseconds(Int64((budget * 1000).rounded()))
        let file = try OutputFile(path: out)
        var calibrator = Calibrator(ledger: session.ledger, start: session.projector.policy, options: calibration)
        let terminal = stderrIsTerminal
        if terminal { calibrator.onProgress = { printProgress("calibrate: " + $0) } }
        let report = try withLedgerErrors { try calibrator.run() }
        if terminal { printProgress("") }
        try file.write(report.policyJSON(tool: StackLedgerCommand.toolVersion))
        try file.commit()
        var stdout = StandardOutput()
        if options.json {
            var w = CanonicalWriter()
            report.writeJSON(&w, store: storeOptions.path, out: out, tool: StackLedgerCommand.toolVersion)
            w.bytes.append(0x0A)
            stdout.write(w.bytes)
        } else {
            stdout.write(report.text(out: out, store: storeOptions.path))
        }
        stdout.flush()
    }
}

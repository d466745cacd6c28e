import ArgumentParser
import Forensics
import Ledger
import Projections
import SmartStack

struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Every stack of a device at an instant: members, order, top, suggestions, active relevance.",
        discussion:
            "Decisions follow the policy smartstack-1 (see `stackledger policy`), StackLedger's model, not Apple's algorithm."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The instant (RFC 3339).", transform: TimeArgument.parse) var at: TimeArgument
    @Option(help: "Only this stack.") var stack: String?
    @OptionGroup var options: ProjectionOptions

    func validate() throws { _ = at.timestamp }

    func run() throws {
        let t = at.timestamp
        let session = try QuerySession(store: storeOptions, options: options)
        let engine = try withLedgerErrors {
            try session.projector.engine(device: session.device, at: t.microseconds, query: try options.query())
        }
        let local = Timestamp(microseconds: t.microseconds, offsetMinutes: engine.localOffset(at: t.microseconds))
        var snapshot = engine.snapshot(at: local)
        if let stack {
            snapshot.stacks = snapshot.stacks.filter { $0.stack == stack }
            guard !snapshot.stacks.isEmpty else {
                throw fail(
                    "--stack \(stack.shown): no such stack on \(session.device.shown) at \(at.text.shown)",
                    code: ExitCodes.usage)
            }
        }
        var out = StandardOutput()
        if options.json {
            var w = CanonicalWriter()
            try withLedgerErrors {
                try StateJSON.write(
                    &w, snapshot: snapshot, at: local, device: session.device, verified: session.verified,
                    damaged: Array(session.projector.damagedRecords), ledger: session.ledger,
                    policy: session.projector.policy, tool: StackLedgerCommand.toolVersion)
            }
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            out.write(StateText.text(snapshot, verified: session.verified, policy: session.projector.policy))
            if !session.projector.damagedRecords.isEmpty {
                out.write(
                    "skipped records that fail their checksum: \(session.projector.damagedRecords.map(String.init).joined(separator: ", "))\n"
                )
            }
        }
        out.flush()
    }
}

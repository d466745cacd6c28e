import ArgumentParser
import Forensics
import Ledger
import Projections
import SmartStack

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The decisions (rotate, scroll, suggest, unsuggest) in an interval, with their reasons.",
        discussion:
            "--json prints NDJSON, one decision per line, ordered by (time, device, stack) and then the engine's order."
    )

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The interval's start (RFC 3339, inclusive).", transform: TimeArgument.parse) var from: TimeArgument
    @Option(help: "The interval's end (RFC 3339, inclusive).", transform: TimeArgument.parse) var to: TimeArgument
    @Option(help: "Only this stack.") var stack: String?
    @Flag(
        help:
            "List the device's own records of what was on screen (stack.observed) that the model disagrees with, instead of the decisions."
    ) var disagreements = false
    @OptionGroup var options: ProjectionOptions

    func validate() throws {
        let a = from.timestamp
        let b = to.timestamp
        guard a.microseconds <= b.microseconds else { throw ValidationError("--from \(from) is after --to \(to)") }
    }

    func run() throws {
        let a = from.timestamp
        let b = to.timestamp
        let session = try QuerySession(store: storeOptions, options: options)
        if disagreements {
            try listDisagreements(session, from: a.microseconds, to: b.microseconds)
            return
        }
        var decisions = try withLedgerErrors {
            try session.projector.decisions(
                device: session.device, from: a.microseconds, to: b.microseconds, query: try options.query())
        }
        if let stack {
            // A stack the device never had up to --to is a usage error, as for `state` and `why`.
            let engine = try withLedgerErrors {
                try session.projector.engine(device: session.device, at: b.microseconds, query: try options.query())
            }
            let known = engine.snapshot(at: b).stacks.map(\.stack)
            guard known.contains(stack) || decisions.contains(where: { $0.stack == stack }) else {
                throw fail(
                    "--stack \(stack.shown): no such stack on \(session.device.shown) up to \(to.text.shown); `stackledger state --at \(to.text)` lists the stacks",
                    code: ExitCodes.usage)
            }
            decisions = decisions.filter { $0.stack == stack }
        }
        // Ordered by (time, device, stack), the engine's order within that.
        decisions = decisions.enumerated().sorted { x, y in
            let l = x.element
            let r = y.element
            if l.time.microseconds != r.time.microseconds { return l.time.microseconds < r.time.microseconds }
            if l.device != r.device { return l.device < r.device }
            if l.stack != r.stack { return l.stack < r.stack }
            return x.offset < y.offset
        }.map(\.element)
        var out = StandardOutput()
        if !session.verified && !options.json {
            out.write("UNVERIFIED: the store failed its quick check; answered because of --force\n")
        }
        for d in decisions {
            if options.json {
                var w = CanonicalWriter()
                ProjectionJSON.write(&w, d)
                w.bytes.append(0x0A)
                out.write(w.bytes)
            } else {
                out.write(ReplayText.text(d))
            }
        }
        if decisions.isEmpty && !options.json { out.write("no decisions between \(from) and \(to)\n") }
        out.flush()
    }

    func listDisagreements(_ session: QuerySession, from: Int64, to: Int64) throws {
        let found = try withLedgerErrors {
            try Explainer(projector: session.projector, device: session.device).observations(
                stack: stack, from: from, to: to, query: try options.query())
        }
        var out = StandardOutput()
        for o in found where o.disagrees {
            if options.json {
                var w = CanonicalWriter()
                ReplayText.writeJSON(&w, o, device: session.device)
                w.bytes.append(0x0A)
                out.write(w.bytes)
            } else {
                out.write(ReplayText.text(o))
            }
        }
        if !options.json {
            out.write(ReplayText.disagreementSummary(found))
        }
        out.flush()
    }
}

import ArgumentParser
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
    @Option(help: "The instant (RFC 3339).") var at: String
    @Option(help: "Only this stack.") var stack: String?
    @OptionGroup var options: ProjectionOptions

    func validate() throws { _ = try parseTime(at, option: "--at") }

    func run() throws {
        let t = try parseTime(at, option: "--at")
        let session = try QuerySession(store: storeOptions, options: options)
        var engine = try withLedgerErrors {
            try session.projector.engine(device: session.device, at: t.microseconds, query: try options.query())
        }
        let local = Timestamp(microseconds: t.microseconds, offsetMinutes: engine.localOffset(at: t.microseconds))
        var snapshot = engine.snapshot(at: local)
        if let stack {
            snapshot.stacks = snapshot.stacks.filter { $0.stack == stack }
            guard !snapshot.stacks.isEmpty else {
                throw fail(
                    "--stack \(stack.shown): no such stack on \(session.device.shown) at \(at.shown)",
                    code: ExitCodes.usage)
            }
        }
        var out = StandardOutput()
        if options.json {
            var w = CanonicalWriter()
            w.beginObject()
            w.key("at")
            w.time(local)
            w.key("device")
            w.string(session.device)
            w.key("verified")
            w.bool(session.verified)
            if !session.verified {
                w.key("unreadable")
                w.beginArray()
                for s in session.projector.damagedRecords { w.integer(Int(s)) }
                w.endArray()
            }
            try writeCheck(&w, ledger: session.ledger)
            ProjectionJSON.writeHeader(&w, policy: session.projector.policy, tool: StackLedgerCommand.toolVersion)
            w.key("stacks")
            ProjectionJSON.writeStacks(&w, snapshot.stacks)
            w.endObject()
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            out.write(State.text(snapshot, verified: session.verified, policy: session.projector.policy))
            if !session.projector.damagedRecords.isEmpty {
                out.write(
                    "skipped records that fail their checksum: \(session.projector.damagedRecords.map(String.init).joined(separator: ", "))\n"
                )
            }
        }
        out.flush()
    }

    static func text(_ s: DeviceSnapshot, verified: Bool, policy: Policy) -> String {
        var out =
            "\(s.device.shown) at \(LocalTime.display(s.at))  (policy \(Policy.name) v\(Policy.version) \(policy.digest))\n"
        if !verified { out += "UNVERIFIED: the store failed its quick check; answered because of --force\n" }
        if s.stacks.isEmpty { out += "  no stacks\n" }
        for stack in s.stacks {
            let toggles =
                "Smart Rotate \(stack.smartRotate ? "on" : "off"), Widget Suggestions \(stack.widgetSuggestions ? "on" : "off")"
            out += "\(stack.stack.shown) (\(stack.platform.shown); \(toggles))\n"
            out +=
                "  top: "
                + (stack.top.map {
                    "\($0.widget.instance.shown) \($0.widget.kind.shown)" + ($0.suggested ? " (suggested)" : "")
                } ?? "none (empty stack)") + "\n"
            for g in stack.widgets {
                var line = "  \(g.position) \(g.widget.instance.shown)  \(g.widget.kind.shown)  \(g.widget.app.shown)"
                if g.suggested { line += "  suggested" }
                if g.pinned { line += "  pinned" }
                if let r = g.relevance {
                    line +=
                        "  score \(number(r.score)) (normalised \(number(r.normalized.roundedForDisplay))) since \(clock(r.since))"
                    line += r.until.map { " until \(clock($0))" } ?? " until the next entry"
                    line += " [event \(r.event)]"
                }
                if let e = g.entry { line += "  shows the \(clock(e.date)) entry [event \(e.event)]" }
                out += line + "\n"
            }
            if let d = stack.decision {
                out +=
                    "  put on top by: \(d.action.rawValue) at \(clock(d.time))"
                    + (d.reasons.first.map { ", \($0.code): \($0.detail.shown)" } ?? "") + "\n"
            }
        }
        return out
    }

    static func number(_ d: Double) -> String {
        var w = CanonicalWriter(capacity: 16)
        w.number(d)
        return w.text
    }

    static func clock(_ t: Timestamp) -> String {
        let text = LocalTime.display(t)
        return String(text.split(separator: " ").dropFirst().first ?? Substring(text))
    }
}

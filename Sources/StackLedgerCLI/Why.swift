import ArgumentParser
import Exports
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack

struct Why: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Why a widget is on top of a stack at an instant, or why another is not.",
        discussion: """
            Explains with the rules Apple documents (rule ids R, T, G, D, S, P, W of docs/smart-stack-model.md) \
            and, where Apple is silent, with the parameters of the policy smartstack-1 (StackLedger's model, \
            not Apple's algorithm). Every reason cites the stored events it rests on by sequence number.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The instant (RFC 3339).", transform: TimeArgument.parse) var at: TimeArgument
    @Option(help: "The stack.") var stack: String
    @Option(help: "A widget instance id or kind: why it is or is not on top or suggested.") var widget: String?
    @Option(
        parsing: .upToNextOption,
        help:
            "Replay as if these stored events (sequence numbers, listed or joined with commas) had never been recorded."
    ) var without: [String] = []
    @Option(
        name: .customLong("with"),
        help: ArgumentHelp(
            "Replay as if the events in this NDJSON file had also been recorded (nothing is stored).", valueName: "file"
        )) var withFile: String?
    @Option(
        help:
            "text, json (as --json), or case: a CASE/UCO JSON-LD bundle of the answer, its reasons and the cited events' provenance."
    ) var format: WhyFormat?
    @OptionGroup var options: ProjectionOptions

    enum WhyFormat: String, ExpressibleByArgument, CaseIterable { case text, json, `case` }

    func validate() throws {
        _ = try withoutSeqs()
        if options.json && format != nil && format != .json {
            throw ValidationError("--json and --format \(format!.rawValue) ask for two formats; give one")
        }
    }

    /// The sequence numbers `--without` names.
    func withoutSeqs() throws -> Set<UInt64> {
        var out = Set<UInt64>()
        for item in without {
            for text in item.split(separator: ",", omittingEmptySubsequences: false) {
                guard let seq = UInt64(text), seq > 0 else {
                    throw ValidationError(
                        "--without \(String(text).shown): name stored events by their sequence numbers (1 or more), as `stackledger log` prints them"
                    )
                }
                out.insert(seq)
            }
        }
        return out
    }

    func run() throws {
        let t = at.timestamp
        let lines = try withFile.map(Why.readEvents) ?? []
        let session = try QuerySession(store: storeOptions, options: options)
        let extra =
            try withFile.map {
                try Why.checkAgainstStore(lines, path: $0, ledger: session.ledger, device: session.device)
            } ?? []
        var query = try options.query()
        query.without = try withoutSeqs()
        if !query.without.isEmpty {
            let stored = try withLedgerErrors { try session.ledger.read { try $0.lastSeq() } }
            if let last = query.withoutPast(lastSeq: stored) {
                throw fail(
                    "--without \(last): the store holds no event with that sequence number (its last is \(stored))",
                    code: ExitCodes.usage)
            }
        }
        query.with = extra
        let explanation = try withLedgerErrors {
            try Explainer(projector: session.projector, device: session.device).explain(
                stack: stack, at: t, widget: widget, query: query)
        }
        guard let explanation else {
            throw fail(
                "--stack \(stack.shown): no such stack on \(session.device.shown) at \(at.text.shown); `stackledger state --at \(at.text)` lists the stacks",
                code: ExitCodes.usage)
        }
        var out = StandardOutput()
        if format == .case {
            let question =
                "--stack \(stack) --at \(at.text)" + (widget.map { " --widget \($0)" } ?? "")
                + (without.isEmpty ? "" : " --without \(without.joined(separator: ","))")
            try withLedgerErrors {
                try CaseWhy.write(
                    explanation, question: question, tool: StackLedgerCommand.toolVersion,
                    policy: session.projector.policy, ledger: session.ledger, flush: { out.write($0) })
            }
        } else if options.json || format == .json {
            var w = CanonicalWriter()
            try withLedgerErrors {
                try explanation.writeJSON(
                    &w, verified: session.verified, policy: session.projector.policy,
                    tool: StackLedgerCommand.toolVersion, ledger: session.ledger)
            }
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            out.write(
                try explanation.text(
                    verified: session.verified, ledger: session.ledger, policy: session.projector.policy))
        }
        out.flush()
    }

    /// Reads and validates `--with` events, failing with the file, line and field. The file
    /// is read once, from start to end: a pipe, a FIFO or `/dev/null` will do.
    static func readEvents(_ path: String) throws -> [(line: Int, event: Event)] {
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() ?? Data() else {
            throw fail("--with \(path): cannot read the file; check the path", code: ExitCodes.ioError)
        }
        var decoder = EventDecoder()
        var events = [(line: Int, event: Event)]()
        for (n, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy(\.isWhitespace) { continue }
            do {
                events.append((n + 1, try decoder.decode(text)))
            } catch {
                throw fail("\(path):\(n + 1): \(error); fix the line (nothing was stored)", code: ExitCodes.dataError)
            }
        }
        return events
    }

    /// What two events with one id must share: everything but `source` (events.md).
    static func contentText(_ event: Event) -> String {
        var e = event
        e.envelope.source = nil
        return e.canonicalJSON
    }

    /// The `--with` events as `ingest` would take them: each of the device asked about; an id
    /// given twice in the file or already stored must name the same content (then the later
    /// one is left out, as ingest skips a duplicate), else the line is refused (65).
    static func checkAgainstStore(_ lines: [(line: Int, event: Event)], path: String, ledger: Ledger, device: String)
        throws -> [Event]
    {
        var seen = [String: (line: Int, text: String)]()
        var out = [Event]()
        for (line, event) in lines {
            guard event.envelope.device == device else {
                throw fail(
                    "\(path):\(line): the event is of device \(event.envelope.device.shown), not \(device.shown); a what-if replays one device (nothing was stored)",
                    code: ExitCodes.dataError)
            }
            guard let id = event.envelope.id else {
                out.append(event)
                continue
            }
            let text = Why.contentText(event)
            if let earlier = seen[id] {
                guard earlier.text == text else {
                    throw fail(
                        "\(path):\(line): id \(id.shown) is given at line \(earlier.line) with other content; give the event another id (nothing was stored)",
                        code: ExitCodes.dataError)
                }
                continue
            }
            seen[id] = (line, text)
            let stored = try withLedgerErrors {
                try ledger.read { r -> (UInt64, String)? in
                    guard let seq = try r.seq(forEventID: id) else { return nil }
                    return try r.withRecord(seq) { (seq, Why.contentText(try Event(record: $0))) }
                }
            }
            if let (seq, storedText) = stored {
                guard storedText == text else {
                    throw fail(
                        "\(path):\(line): id \(id.shown) is stored as sequence number \(seq) with other content; give the event another id (nothing was stored)",
                        code: ExitCodes.dataError)
                }
                continue
            }
            out.append(event)
        }
        return out
    }
}

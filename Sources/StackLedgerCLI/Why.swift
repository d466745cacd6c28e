import ArgumentParser
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
    @Option(help: "The instant (RFC 3339).") var at: String
    @Option(help: "The stack.") var stack: String
    @Option(help: "A widget instance id or kind: why it is or is not on top or suggested.") var widget: String?
    @Option(parsing: .upToNextOption, help: "Replay as if these stored events (sequence numbers) had never been recorded.") var without: [UInt64] = []
    @Option(name: .customLong("with"), help: ArgumentHelp("Replay as if the events in this NDJSON file had also been recorded (nothing is stored).", valueName: "file")) var withFile: String?
    @OptionGroup var options: ProjectionOptions

    func validate() throws { _ = try parseTime(at, option: "--at") }

    func run() throws {
        let t = try parseTime(at, option: "--at")
        let extra = try withFile.map(Why.readEvents) ?? []
        let session = try QuerySession(store: storeOptions, options: options)
        var query = try options.query()
        query.without = Set(without)
        query.with = extra
        let explanation = try withLedgerErrors {
            try Explainer(projector: session.projector, device: session.device).explain(stack: stack, at: t, widget: widget, query: query)
        }
        guard let explanation else {
            throw fail("--stack \(stack.shown): no such stack on \(session.device.shown) at \(at.shown); `stackledger state --at \(at)` lists the stacks", code: ExitCodes.usage)
        }
        var out = StandardOutput()
        if options.json {
            var w = CanonicalWriter()
            try withLedgerErrors { try explanation.writeJSON(&w, verified: session.verified, policy: session.projector.policy, tool: StackLedgerCommand.toolVersion, ledger: session.ledger) }
            w.bytes.append(0x0A)
            out.write(w.bytes)
        } else {
            out.write(try explanation.text(verified: session.verified, ledger: session.ledger, policy: session.projector.policy))
        }
        out.flush()
    }

    /// Reads and validates `--with` events, failing with the file, line and field.
    static func readEvents(_ path: String) throws -> [Event] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail("--with \(path): cannot read the file; check the path", code: ExitCodes.ioError)
        }
        var decoder = EventDecoder()
        var events = [Event]()
        for (n, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy(\.isWhitespace) { continue }
            do {
                events.append(try decoder.decode(text))
            } catch {
                throw fail("\(path):\(n + 1): \(error); fix the line (nothing was stored)", code: ExitCodes.dataError)
            }
        }
        return events
    }
}

import ArgumentParser
import Exports
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack

struct ExportTimeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract:
            "Write an examiner's timeline (Timesketch JSONL or CSV) of events, decisions and the device's records.",
        discussion: """
            One line per stored event, per decision of the model, per record of the device's own \
            (stack.observed, stack.rotated) with how it compares with the model, and per disagreement \
            between them. Each line has message, datetime (with the event's own offset), timestamp \
            (microseconds), timestamp_desc and origin (device, app or model: a line of the model says \
            so in its message), then the attributes listed in docs/queries.md, "Timelines". The \
            export's metadata (tool, policy, chain head, arguments) goes to FILE.meta.json beside \
            --out, never into the timeline. Written to a temporary file and renamed.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case timesketch
        case timesketchCSV = "timesketch-csv"
        case `case`
    }

    @OptionGroup var storeOptions: StoreOptions
    @Option(
        help:
            "timesketch (JSONL), timesketch-csv, or case (a CASE/UCO JSON-LD bundle of the decisions, disagreements and the cited events' provenance)."
    ) var format: Format
    @Option(help: "The file to write, or - for standard output; its metadata goes to FILE.meta.json.") var out: String
    @Option(help: "Where the export's metadata goes (default FILE.meta.json; required with --out -).")
    var meta: String?
    @Option(help: "The interval's start (RFC 3339; default: the first event).", transform: TimeArgument.parse)
    var from: TimeArgument?
    @Option(
        help:
            "The interval's end (RFC 3339, inclusive; default: a day after the last event, for the decisions that follow it).",
        transform: TimeArgument.parse)
    var to: TimeArgument?
    @Option(help: "What to include, comma-separated: events, decisions, observations, disagreements (default: all).")
    var include = "events,decisions,observations,disagreements"
    @OptionGroup var options: ProjectionOptions

    static let includeNames: [String: TimelineRow.Kind] = [
        "events": .event, "decisions": .decision, "observations": .observation, "disagreements": .disagreement,
    ]

    func validate() throws {
        if let from, let to, from.timestamp.microseconds > to.timestamp.microseconds {
            throw ValidationError("--from \(from) is after --to \(to)")
        }
        _ = try kinds()
        if out.hasSuffix(".meta.json") && meta == nil {
            throw ValidationError("--out \(out): that name is the sidecar's; give the timeline's own file name")
        }
        if out == "-" && meta == nil {
            throw ValidationError(
                "--out - writes the timeline to standard output; give --meta FILE for its metadata (tool, policy, chain head)"
            )
        }
        if let meta, meta == out || meta == "-" {
            throw ValidationError("--meta \(meta): give a file of its own, apart from the timeline")
        }
    }

    /// Where the metadata goes.
    var metaPath: String { meta ?? out + ".meta.json" }

    /// How the timeline is named in messages and in its metadata.
    var timelineName: String { out == "-" ? "standard output" : OutputFile.split(out).name }

    func kinds() throws -> Set<TimelineRow.Kind> {
        var kinds = Set<TimelineRow.Kind>()
        for name in include.split(separator: ",", omittingEmptySubsequences: false) {
            let word = name.trimmingCharacters(in: .whitespaces)
            guard let kind = Self.includeNames[word] else {
                throw ValidationError(
                    "--include \(word.isEmpty ? "(empty)" : word): use events, decisions, observations or disagreements, comma-separated"
                )
            }
            kinds.insert(kind)
        }
        return kinds
    }

    func run() throws {
        let session = try QuerySession(store: storeOptions, options: options, allDevices: true)
        let (a, b) = try withLedgerErrors { try exportInterval(session, from: from, to: to) }
        var export = TimelineExport(projector: session.projector)
        export.include = try kinds()
        let head = try withLedgerErrors { try session.ledger.read { try $0.chainHead() } }
        let context = TimelineContext(policy: session.projector.policy, chainHead: head?.description)
        let file = try OutputFile(path: out)
        var counts = [TimelineRow.Kind: Int]()
        if format == .case {
            counts = try withLedgerErrors {
                try CaseTimeline.write(
                    export, devices: session.devices, from: a, to: b, query: try options.query(),
                    question:
                        "\(session.devices.joined(separator: ", ")) from \(Timestamp(microseconds: a).rfc3339) to \(Timestamp(microseconds: b).rfc3339)",
                    tool: StackLedgerCommand.toolVersion, policy: session.projector.policy, ledger: session.ledger,
                    flush: { try file.write($0) })
            }
            try file.commit()
            try writeMetadata(session: session, context: context, from: a, to: b, counts: counts)
            printError("wrote \(out == "-" ? "standard output" : out) and \(metaPath)")
            return
        }
        if format == .timesketchCSV { try file.write(TimesketchWriter.csvHeader) }
        var w = CanonicalWriter(capacity: 1 << 12)
        try withLedgerErrors {
            try export.forEachRow(devices: session.devices, from: a, to: b, query: try options.query()) { row in
                counts[row.kind, default: 0] += 1
                switch format {
                case .timesketch:
                    w.bytes.removeAll(keepingCapacity: true)
                    TimesketchWriter.jsonl(row, context: context, into: &w)
                    try file.write(w.bytes)
                case .timesketchCSV:
                    try file.write(TimesketchWriter.csv(row, context: context))
                case .case:
                    break
                }
            }
        }
        try file.commit()
        try writeMetadata(session: session, context: context, from: a, to: b, counts: counts)
        let total = counts.values.reduce(0, +)
        printError("wrote \(out == "-" ? "standard output" : out) (\(total) lines) and \(metaPath)")
    }

    /// The sidecar: what made the timeline, so that it never has to say so itself.
    func writeMetadata(
        session: QuerySession, context: TimelineContext, from: Int64, to: Int64, counts: [TimelineRow.Kind: Int]
    ) throws {
        var w = CanonicalWriter()
        TimelineSidecar(
            policy: session.projector.policy, tool: StackLedgerCommand.toolVersion, context: context,
            exportedAt: Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)),
            format: format.rawValue,
            file: timelineName, devices: session.devices, from: from, to: to, lines: counts, verified: session.verified,
            arguments: Array(CommandLine.arguments.dropFirst())
        ).writeJSON(&w)
        w.bytes.append(0x0A)
        let sidecar = try OutputFile(path: metaPath)
        try sidecar.write(w.bytes)
        try sidecar.commit()
    }
}

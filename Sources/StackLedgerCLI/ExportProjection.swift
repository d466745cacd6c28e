import ArgumentParser
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack

struct ExportProjection: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projection",
        abstract: "Write state samples and decisions for other tools, as NDJSON or CSV.",
        discussion: """
            NDJSON: one line per sample ({"kind":"state","time","device","stacks":[...]}, the stacks as in \
            `state --json`) and per decision ({"kind":"decision", ...as in `replay --json`}), in time order. \
            CSV: one row per (sample time, stack, widget) with the columns \
            time,device,stack,instance,app,kind,position,onTop,suggested,score,normalized.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case ndjson, csv }

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The first sample's time (RFC 3339).", transform: TimeArgument.parse) var from: TimeArgument
    @Option(help: "The last time (RFC 3339, inclusive).", transform: TimeArgument.parse) var to: TimeArgument
    @Option(help: "The interval between samples: 30s, 15m, 1h or 1d.") var every = "15m"
    @Option(help: "ndjson or csv.") var format: Format
    @OptionGroup var options: ProjectionOptions

    func validate() throws {
        let a = from.timestamp
        let b = to.timestamp
        guard a.microseconds <= b.microseconds else { throw ValidationError("--from \(from) is after --to \(to)") }
        _ = try ExportProjection.duration(every)
    }

    /// The longest `--every`: ten years, the longest duration the contract knows.
    static let longestStep: Int64 = 315_576_000 * 1_000_000

    static func duration(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1_000_000, "m": 60_000_000, "h": 3_600_000_000, "d": 86_400_000_000]
        guard let unit = text.last.flatMap({ units[$0] }), let n = Int64(text.dropLast()), n > 0 else {
            throw ValidationError("--every \(text): use a positive number with s, m, h or d, e.g. 15m")
        }
        guard n <= longestStep / unit else {
            throw ValidationError("--every \(text): the interval must be from 1s to 3652d (ten years)")
        }
        return n * unit
    }

    func run() throws {
        let a = from.timestamp
        let b = to.timestamp
        let step = try ExportProjection.duration(every)
        let session = try QuerySession(store: storeOptions, options: options)
        var out = StandardOutput()
        if format == .csv { out.write(ProjectionExport.csvHeader) }
        let device = session.device
        try withLedgerErrors {
            try session.projector.walk(
                device: device, from: a.microseconds, to: b.microseconds, every: step, query: try options.query(),
                sample: { t, engine in
                    let at = Timestamp(microseconds: t, offsetMinutes: engine.localOffset(at: t))
                    let snapshot = engine.snapshot(at: at)
                    if format == .csv {
                        out.write(ProjectionExport.csvRows(at: at, device: device, snapshot: snapshot))
                    } else {
                        out.write(ProjectionExport.stateLine(at: at, device: device, snapshot: snapshot))
                    }
                },
                decision: { d in
                    guard format == .ndjson else { return }
                    out.write(ProjectionExport.decisionLine(d))
                })
        }
        out.flush()
    }
}

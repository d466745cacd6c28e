import ArgumentParser
import Exports
import Forensics
import Foundation
import Ledger
import Projections
import SQLiteKit
import SmartStack

struct ExportSQLite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sqlite",
        abstract: "Write one SQLite database of events, decisions, reasons, states, observations and assumptions.",
        discussion: """
            Tables: events, decisions, reasons, reason_events, observations, disagreements, states \
            (sampled every --every), assumptions and meta (docs/queries.md, "Tables"), with indices on \
            time and device. Written to a temporary file and renamed, so a killed export never leaves \
            half a database. With --format ndjson, --out is a directory that gets the same tables \
            as one NDJSON file each (TABLE.ndjson, meta.ndjson), for Arrow's and DuckDB's JSON readers.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The database file to write (replaced when it exists); with --format ndjson, the directory.")
    var out: String?
    @Option(help: "sqlite (one database) or ndjson (one NDJSON file per table in the directory --out).")
    var format: TablesFormat = .sqlite
    @Flag(help: "Print the tables' schema (SQL) and exit, without a store: what the fleet reads its columns from.")
    var schema = false
    @Option(help: "The interval's start (RFC 3339; default: the first event).", transform: TimeArgument.parse)
    var from: TimeArgument?
    @Option(
        help: "The interval's end (RFC 3339, inclusive; default: a day after the last event).",
        transform: TimeArgument.parse)
    var to: TimeArgument?
    @Option(help: "The interval between state samples: 30s, 15m, 1h or 1d.") var every = "15m"
    @Flag(help: "Leave the events table empty (for a caller that holds the events already, as the fleet).")
    var noEvents = false
    @OptionGroup var options: ProjectionOptions

    func validate() throws {
        if let from, let to, from.timestamp.microseconds > to.timestamp.microseconds {
            throw ValidationError("--from \(from) is after --to \(to)")
        }
        if schema { return }
        guard let out else { throw ValidationError("Missing expected argument '--out <out>'") }
        if out == "-" {
            throw ValidationError(
                "--out -: a SQLite database, or the NDJSON tables' directory, is opened by its readers; give its path")
        }
        _ = try ExportProjection.duration(every)
    }

    func run() throws {
        if schema {
            printOutput(SQLiteExport.schema)
            return
        }
        guard let out else { throw ValidationError("Missing expected argument '--out <out>'") }
        let session = try QuerySession(store: storeOptions, options: options, allDevices: true)
        let (a, b) = try withLedgerErrors { try exportInterval(session, from: from, to: to) }
        let head = try withLedgerErrors { try session.ledger.read { try $0.chainHead() } }
        var export = SQLiteExport(projector: session.projector, every: try ExportProjection.duration(every))
        export.includeEvents = !noEvents
        let meta = metadata(session: session, head: head?.description, from: a, to: b)
        let counts: SQLiteExport.Counts
        switch format {
        case .sqlite:
            let file = try OutputFile(path: out)
            do {
                let db = try SQLiteExport.database(at: file.temporaryPath)
                counts = try withLedgerErrors {
                    try export.write(
                        into: db, devices: session.devices, from: a, to: b, query: try options.query(), meta: meta)
                }
            } catch let error as SQLiteError {
                throw fail("--out \(out): \(error)", code: ExitCodes.ioError)
            }
            try file.commit()
        case .ndjson:
            let directory = try OutputDirectory(path: out) { file in
                ExportTable.all.contains { $0.name + ".ndjson" == file }
            }
            do {
                var sink = try NDJSONTableSink(directory: directory.temporaryPath)
                counts = try withLedgerErrors {
                    try export.write(
                        into: &sink, devices: session.devices, from: a, to: b, query: try options.query(),
                        meta: meta)
                }
                try sink.finish()
            } catch let error as TableFileError {
                throw fail("--out \(out): \(error)", code: ExitCodes.ioError)
            }
            try directory.commit()
        }
        let summary = counts.rows.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        printError("wrote \(out): \(summary.isEmpty ? "no rows" : summary)")
    }

    func metadata(session: QuerySession, head: String?, from: Int64, to: Int64) -> [(String, String)] {
        let policy = session.projector.policy
        return [
            ("tool", StackLedgerCommand.toolVersion), ("policy_name", policy.name),
            ("policy_version", String(Policy.version)), ("policy_digest", policy.digest),
            ("chain_head", head ?? ""),
            ("exported_at", Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)).rfc3339),
            ("from", Timestamp(microseconds: from).rfc3339), ("to", Timestamp(microseconds: to).rfc3339),
            ("every", every), ("devices", SQLiteExport.jsonArray(session.devices)),
            ("verified", session.verified ? "true" : "false"),
            ("arguments", SQLiteExport.jsonArray(Array(CommandLine.arguments.dropFirst()))),
        ]
    }
}

/// The form `export sqlite` writes its tables in.
enum TablesFormat: String, ExpressibleByArgument, CaseIterable {
    case sqlite, ndjson
}

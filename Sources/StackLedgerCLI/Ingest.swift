import ArgumentParser
import Forensics
import Foundation
import Ingestion
import Ledger
import SmartStack

#if canImport(Glibc)
    import Glibc
#endif

struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate NDJSON events, then append them to the store.",
        discussion: """
            The whole input is validated before anything is stored: one invalid line rejects \
            the run (exit 65) and the store is left unchanged. Storing commits whole batches; \
            each commit is reported on standard error. Events with an id already stored are \
            skipped when identical.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "NDJSON files; '-' or none reads standard input.")
    var files: [String] = []

    @Flag(help: "Store the valid lines, list the rejected ones, and exit 65 if any were rejected.")
    var skipInvalid = false

    @Option(help: "Events per commit.")
    var batchSize = 4096

    @Option(help: "Milliseconds of reading after which a batch is closed with fewer than --batch-size events.")
    var batchMs = 250

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        guard (1...1_000_000).contains(batchSize) else {
            throw ValidationError("--batch-size must be from 1 to 1000000 (it is \(batchSize))")
        }
        guard (1...3_600_000).contains(batchMs) else {
            throw ValidationError("--batch-ms must be from 1 to 3600000 (it is \(batchMs))")
        }
    }

    func run() throws {
        // Every input that is not a regular file (standard input, a pipe, a FIFO, a device)
        // is copied once into a private file first, so that the run is validated whole before
        // anything is stored, and no input is opened twice.
        var spools: InputSpools?
        defer { spools?.remove() }
        var inputs = [Ingestor.Input]()
        for file in files.isEmpty ? ["-"] : files {
            if file != "-", isRegularFile(file) {
                guard access(file, R_OK) == 0 else {
                    throw fail("cannot read \(file): \(String(cString: strerror(errno)))", code: ExitCodes.ioError)
                }
                inputs.append(.init(path: file, displayName: file))
            } else {
                do {
                    if spools == nil { spools = try InputSpools() }
                    inputs.append(.init(path: try spools!.spool(file), displayName: file))
                } catch let e as InputSpoolError {
                    let code: Int32
                    switch e.kind {
                    case .unreadable: code = ExitCodes.ioError
                    case .directory: code = ExitCodes.usage
                    case .lineTooLong: code = ExitCodes.dataError
                    }
                    throw fail(e.message, code: code)
                }
            }
        }
        let ledger = try openLedger(storeOptions, readOnly: false)
        var options = Ingestor.Options()
        options.skipInvalid = skipInvalid
        options.batchSize = batchSize
        options.batchMilliseconds = batchMs
        let terminal = stderrIsTerminal
        options.onValidated = { n in
            if terminal { printProgress("validated \(n) lines") }
        }
        options.onCommit = { receipt, total in
            guard let last = receipt.lastSeq else { return }
            if terminal {
                printProgress("stored \(total) events, committed through seq \(last)")
            } else {
                printError("committed through seq \(last)")
            }
        }
        let summary: IngestSummary
        do {
            summary = try Ingestor(ledger: ledger, options: options).run(inputs)
        } catch let rejected as IngestRejected {
            if terminal { printProgress("") }
            for p in rejected.problems.prefix(20) { printError(p.description) }
            if rejected.count > 20 { printError("... \(rejected.count - 20) more invalid lines") }
            throw fail(
                "rejected \(rejected.count) invalid line\(rejected.count == 1 ? "" : "s"); nothing was stored. Fix the lines, or rerun with --skip-invalid to store the valid ones",
                code: ExitCodes.dataError, problems: rejected.problems)
        } catch let e as LedgerError {
            if terminal { printProgress("") }
            throw fail(e.message, code: ledgerExitCode(for: e))
        }
        if terminal { printProgress("") }
        for p in summary.problems { printError("rejected " + p.description) }
        if json {
            var w = CanonicalWriter()
            summary.writeJSON(&w, tool: StackLedgerCommand.toolVersion)
            printOutput(w.text)
        } else {
            var line =
                "stored \(summary.stored), skipped \(summary.duplicates) duplicate\(summary.duplicates == 1 ? "" : "s"), rejected \(summary.rejected)"
            if let f = summary.firstSeq, let l = summary.lastSeq { line += " (seq \(f)-\(l))" }
            printOutput(line)
        }
        if summary.rejected > 0 {
            FailureReport.record(
                "rejected \(summary.rejected) invalid line\(summary.rejected == 1 ? "" : "s"); the valid ones were stored",
                problems: summary.problems)
            throw ExitCode(ExitCodes.dataError)
        }
    }
}

/// Rewrites the progress line on a terminal (an empty text clears it).
func printProgress(_ text: String) {
    CommandStreams.current.write("\r\u{1B}[K" + (text.isEmpty ? "" : "stackledger: " + text), to: .error)
}

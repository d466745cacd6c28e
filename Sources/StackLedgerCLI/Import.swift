import ArgumentParser
import Forensics
import Foundation
import Importers
import Ledger
import SmartStack
import Synchronization

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Read forensic artifacts (Biome SEGB, knowledgeC.db, PowerLog, SpringBoard's IconState.plist, the Duet expert stores, a whole extraction) and append the events they yield.",
        discussion: """
            FORMAT is segb (one SEGB file, or a Biome streams/ tree), knowledgec (a knowledgeC.db) \
            powerlog (a PowerLog .PLSQL) or iconstate (SpringBoard's IconState.plist or \
            DesiredIconState.plist: one stack.layoutObserved, dated by the file's modification \
            time unless --layout-time is given), homescreenpages (duetexpertd's copy of the same \
            layout, DuetExpertCenter/CachedHomeScreenConfig/HomeScreenPages, dated the same way), \
            atx (duetexpertd's _ATXInfoSuggestionStore.db: the device's own rotations, relevance, \
            engagements, suggestions and dismissals), or extraction (a folder, .zip, .tar or \
            .tar.gz holding a whole device's file system, private/var/...: every artifact above \
            found by its path, and \
            SystemVersion.plist read into device.info; links are listed, never followed). The evidence is never written: databases are opened \
            immutable (or from a private copy when a write-ahead log is present) and their SHA-256 \
            is checked before and after. Each file is imported whole or not at all; every event \
            carries its provenance (the file's SHA-256, its path relative to --root, the stream or \
            table, the record's offset or row id) and an id derived from them, so importing the \
            same file again adds nothing. A per-file report follows; a file that cannot be read \
            is named with the reason and the command exits 65 after importing the others.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The artifact's format.")
    var format: ArtifactFormat

    @Argument(help: "The artifact file, or (segb) a directory of SEGB files.")
    var path: String

    @Option(
        help:
            "The extraction's root directory; source.path is given relative to it (default: the directory imported, or the file's directory)."
    )
    var root: String?

    @Option(help: "(extraction) The device's time zone (IANA name), written into its device.info.")
    var timeZone: String?

    @Option(help: "The device these artifacts belong to (extraction: required when the store holds another device).")
    var device: String?

    @Option(help: "The Biome stream of a lone SEGB file whose path does not name it (e.g. App.InFocus).")
    var stream: String?

    @Option(
        help:
            "(iconstate, homescreenpages, extraction) The layout's time (RFC 3339), when the file's modification time is not when it was written.",
        transform: TimeArgument.parse)
    var layoutTime: TimeArgument?

    @Option(help: "(iconstate, homescreenpages) The device's platform for the stacks the layout lists: iOS or iPadOS.")
    var platform: String = "iOS"

    @Flag(help: "Print the per-file report as JSON.")
    var json = false

    func validate() throws {
        if let device, device.isEmpty { throw ValidationError("--device must not be empty") }
        if let stream, BiomeStream.named(stream) == nil {
            throw ValidationError(
                "unknown Biome stream \"\(stream)\"; StackLedger reads \(BiomeStream.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if stream != nil && format != .segb { throw ValidationError("--stream applies to segb only") }
        if layoutTime != nil && ![.iconstate, .homescreenpages, .extraction].contains(format) {
            throw ValidationError("--layout-time applies to iconstate, homescreenpages and extraction only")
        }
        if timeZone != nil && format != .extraction { throw ValidationError("--time-zone applies to extraction only") }
        // A name of the IANA database, or UTC: Foundation also takes offsets such as
        // `UTC+5` as zones, which a device's zone never is.
        if let timeZone, timeZone != "UTC", !TimeZone.knownTimeZoneIdentifiers.contains(timeZone) {
            throw ValidationError(
                "--time-zone \(timeZone): not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)")
        }
        if root != nil && format == .extraction {
            throw ValidationError("--root does not apply to extraction: the folder given is the extraction's root")
        }
        guard ["iOS", "iPadOS"].contains(platform) else {
            throw ValidationError("--platform \(platform): a home screen layout is iOS or iPadOS")
        }
    }

    func run() throws {
        guard let importFormat = format.importFormat else { return try importExtraction() }
        var options = ImportRun.Options()
        options.root = root
        options.stream = stream
        options.layoutTime = layoutTime?.timestamp
        options.platform = platform
        if let device { options.device = device }
        let terminal = stderrIsTerminal
        let done = ProgressCounter()
        options.onFile = { report in
            let n = done.next()
            if terminal { printProgress("imported \(n) file\(n == 1 ? "" : "s"), last \(report.path.shown)") }
        }
        let run = ImportRun(format: importFormat, options: options)
        // Resolve the files before opening the store, so a bad path leaves no store behind.
        let listing: ImportRun.Listing
        do {
            listing = try run.files(at: path)
        } catch {
            throw fail(error.description, code: error.isUsage ? ExitCodes.usage : ExitCodes.ioError)
        }
        let ledger = try openLedger(storeOptions, readOnly: false, writesInPlace: run.writesInPlace(listing.files))
        let reports: [ImportFileReport]
        do {
            reports = try run.run(files: listing.files, root: listing.root, into: ledger)
        } catch let e as LedgerError {
            if terminal { printProgress("") }
            throw fail(e.message, code: ledgerExitCode(for: e))
        }
        if terminal { printProgress("") }
        if json {
            printJSON(reports, passedOver: listing.passedOver)
        } else {
            printText(reports, passedOver: listing.passedOver)
        }
        let failedFiles = reports.filter { $0.error != nil }
        for r in failedFiles { printError("\(r.path.shown): \(r.error!.shown)") }
        if !failedFiles.isEmpty {
            FailureReport.record(
                "\(failedFiles.count) file\(failedFiles.count == 1 ? "" : "s") failed, the others were imported: "
                    + failedFiles.map { "\($0.path.shown): \($0.error!.shown)" }.joined(separator: "; "), problems: [])
            throw ExitCode(ExitCodes.dataError)
        }
    }

    func printText(_ reports: [ImportFileReport], passedOver: [PassedOver]) {
        var out = StandardOutput()
        out.write("file\tstream\tcontainer\tread\timported\tduplicates\tdeleted\tempty\tskipped\tfailed\n")
        var totals = ImportFileReport(path: "total")
        for r in reports {
            out.write(
                [
                    r.path.shown, r.stream.shownOrDash, r.container.shownOrDash, "\(r.recordsRead)",
                    r.error == nil ? "\(r.imported)" : "error",
                    "\(r.duplicates)", "\(r.deleted)", "\(r.empty)", "\(r.skipped)", "\(r.failed)",
                ].joined(separator: "\t") + "\n")
            if let link = r.link { out.write("  read through a link to \(link.shown)\n") }
            for p in r.problems.prefix(10) { out.write("  \(p.shown)\n") }
            if r.problems.count > 10 { out.write("  ... \(r.problems.count - 10) more\n") }
            totals.recordsRead += r.recordsRead
            totals.imported += r.imported
            totals.duplicates += r.duplicates
            totals.deleted += r.deleted
            totals.empty += r.empty
            totals.skipped += r.skipped
            totals.failed += r.failed
        }
        if reports.count > 1 {
            out.write(
                "total (\(reports.count) files)\t\t\t\(totals.recordsRead)\t\(totals.imported)\t\(totals.duplicates)\t\(totals.deleted)\t\(totals.empty)\t\(totals.skipped)\t\(totals.failed)\n"
            )
        }
        for p in passedOver { out.write("passed over\t\(p.path.shown)\t\(p.reason.shown)\n") }
        out.flush()
    }

    func printJSON(_ reports: [ImportFileReport], passedOver: [PassedOver]) {
        var w = CanonicalWriter()
        ImportFileReport.writeJSON(
            &w, format: format.rawValue, files: reports, passedOver: passedOver, tool: StackLedgerCommand.toolVersion)
        printOutput(w.text)
    }
}

/// A thread-safe count of finished items, for progress lines.
final class ProgressCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}

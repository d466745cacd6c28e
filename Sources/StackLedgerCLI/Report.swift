import ArgumentParser
import Forensics
import Foundation
import Ledger
import Projections
import SmartStack

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained HTML page with the day as a picture.",
        discussion: """
            Per stack: a lane of the widget on top over time, suggestion spans, each widget's \
            relevance over time, context bands and event markers; choosing a decision shows its \
            reasons and the events they cite. The page needs no network; every string from the log \
            is shown as text, never as markup.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Start (RFC 3339).", transform: TimeArgument.parse) var from: TimeArgument
    @Option(help: "End (RFC 3339).", transform: TimeArgument.parse) var to: TimeArgument
    @Option(help: "The HTML file to write.") var out: String
    @OptionGroup var options: ProjectionOptions

    func validate() throws {
        let a = from.timestamp
        let b = to.timestamp
        guard a.microseconds < b.microseconds else { throw ValidationError("--from \(from) must be before --to \(to)") }
    }

    func run() throws {
        let a = from.timestamp
        let b = to.timestamp
        let session = try QuerySession(store: storeOptions, options: options)
        let data = try withLedgerErrors {
            try ReportData.collect(
                projector: session.projector, device: session.device, from: a, to: b, query: try options.query(),
                verified: session.verified, tool: StackLedgerCommand.toolVersion)
        }
        let html = ReportPage.html(dataJSON: data, title: "StackLedger: \(session.device), \(from) to \(to)")
        let file = try OutputFile(path: out)
        try file.write(html)
        try file.commit()
        printError("wrote \(out == "-" ? "standard output" : out) (\(html.utf8.count) bytes)")
    }
}

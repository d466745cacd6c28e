import ArgumentParser
import Forensics
import Ledger
import SmartStack

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export the store.",
        subcommands: [ExportEvents.self, ExportProjection.self, ExportTimeline.self, ExportSQLite.self])
}

struct ExportEvents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Write the whole log as NDJSON in canonical form, in sequence order.",
        discussion: "Ingesting the output into an empty store and exporting again gives the same bytes.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let ledger = try openLedger(storeOptions, readOnly: true)
        var out = StandardOutput()
        try withLedgerErrors {
            try ledger.read { reader in
                var w = CanonicalWriter(capacity: 1 << 12)
                try reader.scan { view in
                    let event = try Event.stored(view)
                    w.bytes.removeAll(keepingCapacity: true)
                    event.writeCanonical(&w)
                    w.bytes.append(0x0A)
                    out.write(w.bytes)
                    return true
                }
            }
        }
        out.flush()
    }
}

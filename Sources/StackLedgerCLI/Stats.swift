import ArgumentParser
import Forensics
import Ledger
import SmartStack

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Event counts by type, devices, time span, bytes on disk and bytes per event.")

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let ledger = try openLedger(storeOptions, readOnly: true)
        let s = try withLedgerErrors { try ledger.statistics() }
        if json {
            var w = CanonicalWriter()
            s.writeJSON(&w, tool: StackLedgerCommand.toolVersion)
            printOutput(w.text)
            return
        }
        printOutput("events: \(s.events) in \(s.batches) commits")
        printOutput(
            "devices: "
                + (s.countsByDevice.isEmpty
                    ? "none"
                    : s.countsByDevice.sorted { $0.key < $1.key }.map { "\($0.key.shown) (\($0.value))" }.joined(
                        separator: ", ")))
        if let f = s.firstTime, let l = s.lastTime { printOutput("time span: \(f.rfc3339) to \(l.rfc3339)") }
        printOutput("by type:")
        for (k, v) in s.countsByType.sorted(by: { $0.key < $1.key }) { printOutput("  \(k): \(v)") }
        printOutput(
            "bytes on disk: \(s.fileBytes) (data file); \(s.usedBytes) in used pages: \(s.treeBytes) of the log, \(s.derivedBytes) of checkpoints"
        )
        printOutput("bytes per event: \(String(oneDecimal: s.bytesPerEvent))")
        if let h = s.head { printOutput("chain head: seq \(h.lastSeq) sha256:\(h.hashHex)") }
    }
}

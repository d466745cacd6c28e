import StackLedgerCLI
import Testing

/// The executable gives freed memory back at once for an export only (its resident memory
/// must stay flat however long it runs); other commands keep the allocator's defaults.
@Suite("Which command lines are exports")
struct ExportArgumentsTests {
    @Test("every export verb is an export; other verbs, and an export's name as a value, are not")
    func exportsAreKnownByTheirVerb() {
        for verb in ["timeline", "sqlite", "events", "projection"] {
            let arguments: [String] = ["stackledger", "export", verb, "--store", "s"]
            #expect(StackLedgerCommand.isExport(arguments))
        }
        let others: [[String]] = [
            ["stackledger", "state", "--store", "export"], ["stackledger", "replay", "--device", "export"],
            ["stackledger"], ["export"],
        ]
        for arguments in others {
            let isExport = StackLedgerCommand.isExport(arguments)
            #expect(!isExport, "\(arguments)")
        }
    }
}

import Allocator
import StackLedgerCLI

// An export streams what it writes: what it frees is given back at once, so that its
// resident memory stays flat however long the export.
if StackLedgerCommand.isExport(CommandLine.arguments) { ProcessAllocator.returnFreedMemoryAtOnce() }
StackLedgerCommand.runFromCommandLine()

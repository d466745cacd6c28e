import Allocator
import Server
import StackLedgerCLI

// An export streams what it writes: what it frees is given back at once, so that its
// resident memory stays flat however long the export.
if StackLedgerCommand.isExport(CommandLine.arguments) { ProcessAllocator.returnFreedMemoryAtOnce() }
// A server frees and allocates the same amounts question after question: what it frees is
// kept a second for the next question, rather than given back and faulted in again. Its
// handlers run on the threads that serve the connections.
if StackLedgerCommand.isServe(CommandLine.arguments) {
    ProcessAllocator.keepFreedMemory(milliseconds: 1000)
    StackLedgerServer.answerOnEventLoops()
}
StackLedgerCommand.runFromCommandLine()

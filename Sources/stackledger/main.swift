import StackLedgerCLI

StackLedgerCommand.runFromCommandLine()

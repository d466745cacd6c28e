public import ArgumentParser

/// The `stackledger` command: an event-sourced store of the signals that drive Smart Stacks.
public struct StackLedgerCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "stackledger",
        abstract:
            "Store, import, verify, replay, explain and export the signals that drive Smart Stacks, in an append-only LMDB log.",
        discussion: """
            Exit codes: 0 success, 1 a check failed (verify), 64 bad usage, 65 bad input data, \
            74 I/O or storage error.
            """,
        version: StackLedgerCommand.toolVersion,
        subcommands: [
            Ingest.self, Import.self, Log.self, Export.self, Verify.self, Stats.self, State.self, Replay.self, Why.self,
            Report.self, Rebuild.self, PolicyCommand.self,
        ]
    )

    /// The tool's version, reported in every JSON document.
    public static let toolVersion = "stackledger 0.1.0"

    public init() {}

    /// Parses the process's arguments and runs the command, exiting with its code.
    public static func runFromCommandLine() {
        main(joiningListedNumbers(Array(CommandLine.arguments.dropFirst())))
    }

    /// `--without 3 5 8 ...` given as one argument, `--without 3,5,8`: the argument parser
    /// takes a long list of values in time that grows with its square, this in linear time.
    static func joiningListedNumbers(_ arguments: [String]) -> [String] {
        var out = [String]()
        out.reserveCapacity(arguments.count)
        var k = 0
        while k < arguments.count {
            out.append(arguments[k])
            if arguments[k] == "--without" {
                var listed = [String]()
                while k + 1 < arguments.count, !arguments[k + 1].hasPrefix("-") {
                    listed.append(arguments[k + 1])
                    k += 1
                }
                if !listed.isEmpty { out.append(listed.joined(separator: ",")) }
            }
            k += 1
        }
        return out
    }
}

/// The `--store` option every command takes.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store directory.", discussion: "Default: $STACKLEDGER_STORE, else ./stackledger-store.",
            valueName: "dir"))
    var store: String?

    var path: String {
        if let store { return store }
        if let env = getenv("STACKLEDGER_STORE"), let s = String(validatingCString: env), !s.isEmpty { return s }
        return "./stackledger-store"
    }
}

#if canImport(Glibc)
    import Glibc
#endif

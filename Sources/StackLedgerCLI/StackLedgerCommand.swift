public import ArgumentParser
import Forensics
import Ingestion
import LMDBKit
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

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
            Report.self, Serve.self, Rebuild.self, PolicyCommand.self, Calibrate.self,
        ]
    )

    /// The tool's version, reported in every JSON document.
    public static let toolVersion = "stackledger 0.1.0"

    public init() {}

    /// Whether `arguments` (a process's, its program first) ask for an export.
    public static func isExport(_ arguments: [String]) -> Bool {
        arguments.dropFirst().first == "export"
    }

    /// Whether `arguments` (the process's, the program's name first) run `serve`.
    public static func isServe(_ arguments: [String]) -> Bool {
        arguments.dropFirst().first == "serve"
    }

    /// Parses the process's arguments and runs the command, exiting with its code. With
    /// `--json`, a failure also ends standard error with one JSON line, `{"error": {...}}`
    /// (docs/queries.md, "Errors as JSON").
    public static func runFromCommandLine() {
        Glibc.exit(execute(Array(CommandLine.arguments.dropFirst())))
    }

    /// What a run of the command wrote and how it ended.
    public struct Outcome: Sendable {
        /// The exit code the process would end with.
        public var status: Int32
        /// The bytes written to standard output.
        public var output: [UInt8]
        /// The bytes written to standard error.
        public var error: [UInt8]
    }

    /// Runs the command with `arguments` (without the program's name) in this process, as
    /// `runFromCommandLine` runs it, keeping what it writes instead of writing it out.
    /// Runs side by side keep their outputs apart. A command that reads standard input, or
    /// `serve`, is for the command line only.
    public static func run(arguments: [String]) -> Outcome {
        let streams = CommandStreams(capturing: true)
        let status = CommandStreams.$current.withValue(streams) { execute(arguments) }
        let kept = streams.kept
        return Outcome(status: status, output: kept.output, error: kept.error)
    }

    /// Parses `arguments` and runs the command, writing its output, its failure's message
    /// and, with `--json`, the JSON error line to the run's streams; returns the exit code.
    static func execute(_ arguments: [String]) -> Int32 {
        let arguments = joiningListedNumbers(arguments)
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return ExitCode.success.rawValue
        } catch {
            let code = exitCode(for: error)
            // The parser's own message: help and the version on standard output, a usage
            // error on standard error, as the argument parser writes them.
            let text = fullMessage(for: error)
            if code == .success {
                if !text.isEmpty { CommandStreams.current.write(text + "\n", to: .output) }
                return code.rawValue
            }
            if !text.isEmpty { printRaw(text + "\n") }
            if arguments.prefix(while: { $0 != "--" }).contains("--json") {
                FailureReport.writeJSON(exit: code.rawValue, otherwise: message(for: error))
            }
            return code.rawValue
        }
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

    @Flag(
        help: ArgumentHelp(
            "Do not flush commits to disk.",
            discussion:
                "For a temporary store that is deleted after use, as the fleet's on Spark: a crash of the machine can lose or damage the store."
        ))
    var noSync = false

    /// How the store is opened: read-only or not, flushed on commit unless --no-sync.
    func ledgerOptions(readOnly: Bool) -> Ledger.Options {
        var options = Ledger.Options(readOnly: readOnly)
        if noSync { options.environment.flags.insert(.noSync) }
        return options
    }

    var path: String {
        if let store { return store }
        if let env = getenv("STACKLEDGER_STORE"), let s = String(validatingCString: env), !s.isEmpty { return s }
        return "./stackledger-store"
    }
}

/// The exit codes of the command-line contract.
enum ExitCodes {
    static let checkFailed: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let ioError: Int32 = 74
}

/// Prints one line to standard error, prefixed with the command name.
func printError(_ message: String) {
    CommandStreams.current.write("stackledger: " + message.oneLine + "\n", to: .error)
}

/// Writes `text` to standard error as it is.
func printRaw(_ text: String) {
    CommandStreams.current.write(text, to: .error)
}

/// Ends the command with an error message and an exit code; `problems` are the input's
/// lines at fault, for the `--json` error object.
func fail(_ message: String, code: Int32, problems: [IngestProblem] = []) -> ExitCode {
    printError(message)
    FailureReport.record(message, problems: problems)
    return ExitCode(code)
}

/// The exit code for a ledger error.
func ledgerExitCode(for error: LedgerError) -> Int32 {
    switch error.kind {
    case .idConflict: return ExitCodes.dataError
    default: return ExitCodes.ioError
    }
}

/// Fails with exit 74 unless a store exists at the options' path (queries never create one).
func requireStore(_ options: StoreOptions) throws {
    guard access(options.path + "/data.mdb", F_OK) == 0 else {
        if errno == EACCES {
            throw fail(
                "cannot read the store at \(options.path): permission denied; run as a user who may read it",
                code: ExitCodes.ioError)
        }
        throw fail(
            "no store at \(options.path); create one with `stackledger ingest`, or pass --store DIR",
            code: ExitCodes.ioError)
    }
}

/// Opens the store, turning failures into the documented exit codes.
///
/// - Parameter writesInPlace: the commits write their pages into the store's file, not the
///   process's memory (`Ledger.Options.writesInPlace`), for imports whose one commit per
///   file may be of any size; a page the disk cannot take then ends the process cleanly
///   (`StoreFaultHandler`).
func openLedger(_ options: StoreOptions, readOnly: Bool, writesInPlace: Bool = false) throws -> Ledger {
    var ledgerOptions = options.ledgerOptions(readOnly: readOnly)
    if writesInPlace && !readOnly {
        // A run in another program's process (`run(arguments:)`) leaves its signals alone.
        if !CommandStreams.current.isCapturing { StoreFaultHandler.install(store: options.path) }
        ledgerOptions.writesInPlace = true
    }
    do {
        return try Ledger(path: options.path, options: ledgerOptions)
    } catch {
        throw fail(error.message, code: ledgerExitCode(for: error))
    }
}

/// Runs `body`, mapping ledger errors to exit codes.
func withLedgerErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as LedgerError {
        throw fail(e.message, code: ledgerExitCode(for: e))
    }
}

/// Buffered standard output for large outputs.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        fflush(nil)
        buffer.withUnsafeBytes { _ = CommandStreams.current.write($0, to: .output) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Whether standard error is a terminal (progress lines are shown only then).
var stderrIsTerminal: Bool { !CommandStreams.current.isCapturing && isatty(2) == 1 }

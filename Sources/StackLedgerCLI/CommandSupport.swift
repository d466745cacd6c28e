import ArgumentParser
import Forensics
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// The exit codes of the command-line contract.
enum ExitCodes {
    static let checkFailed: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let ioError: Int32 = 74
}

/// Prints one line to standard error, prefixed with the command name.
func printError(_ message: String) {
    var line = "stackledger: " + message.oneLine + "\n"
    line.withUTF8 { _ = SystemIO.writeAll(2, UnsafeRawBufferPointer($0)) }
}

/// Ends the command with an error message and an exit code.
func fail(_ message: String, code: Int32) -> ExitCode {
    printError(message)
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
func openLedger(_ options: StoreOptions, readOnly: Bool) throws -> Ledger {
    do {
        return try Ledger(path: options.path, options: Ledger.Options(readOnly: readOnly))
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
        buffer.withUnsafeBytes { _ = SystemIO.writeAll(1, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Whether standard error is a terminal (progress lines are shown only then).
var stderrIsTerminal: Bool { isatty(2) == 1 }

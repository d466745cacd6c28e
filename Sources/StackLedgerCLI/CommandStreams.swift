import Ingestion
import Ledger
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where one run of the command writes, and what its failure said. A run from the command
/// line writes to the process's standard output and error; a run in this process
/// (`StackLedgerCommand.run(arguments:)`) writes into buffers of its own, so that runs side
/// by side never mix their output or their failures.
final class CommandStreams: Sendable {
    /// The two streams.
    enum Stream { case output, error }

    /// The run's streams: the process's, unless a caller bound others for its run.
    @TaskLocal static var current = CommandStreams(capturing: false)

    /// Whether what is written is kept rather than written to the process's streams.
    let isCapturing: Bool
    /// The bytes kept so far (none when written out).
    private let captured = Mutex<(output: [UInt8], error: [UInt8])>(([], []))
    /// The failure's message and the input's lines at fault, for the `--json` error object.
    let failure = Mutex<(message: String, problems: [IngestProblem])?>(nil)

    /// Streams that keep what is written (`capturing`), or write to file descriptors 1 and 2.
    init(capturing: Bool) {
        isCapturing = capturing
    }

    /// Writes `bytes` to `stream`, whole: nil once written, else the `errno` of the write
    /// that failed (0 when a write wrote nothing).
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer, to stream: Stream) -> Int32? {
        guard isCapturing else {
            return SystemIO.writeAll(stream == .output ? STDOUT_FILENO : STDERR_FILENO, bytes)
        }
        captured.withLock {
            switch stream {
            case .output: $0.output.append(contentsOf: bytes)
            case .error: $0.error.append(contentsOf: bytes)
            }
        }
        return nil
    }

    /// Writes `text` to `stream`.
    func write(_ text: String, to stream: Stream) {
        var text = text
        text.withUTF8 { _ = write(UnsafeRawBufferPointer($0), to: stream) }
    }

    /// What was kept of each stream (empty when written out).
    var kept: (output: [UInt8], error: [UInt8]) {
        captured.withLock { $0 }
    }
}

/// Writes one line of text to the run's standard output.
func printOutput(_ text: String) {
    CommandStreams.current.write(text + "\n", to: .output)
}

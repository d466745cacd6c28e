import Forensics
import Ingestion
import Ledger
import SmartStack
import Synchronization

/// What the command's failure said, kept for the JSON error object that `--json` asks for:
/// `{"error":{"exit":65,"message":"...","problems":[{"file","line","column","field","message"}]}}`,
/// one line, the last on standard error (docs/queries.md, "Errors as JSON").
enum FailureReport {
    /// Keeps the failure's message and the input's lines at fault.
    static func record(_ message: String, problems: [IngestProblem]) {
        CommandStreams.current.failure.withLock { $0 = (message, problems) }
    }

    /// Writes the error object: the recorded failure, or `otherwise` (the argument parser's
    /// message for a usage error) when none was recorded.
    static func writeJSON(exit: Int32, otherwise: String) {
        let recorded = CommandStreams.current.failure.withLock { $0 }
        var w = CanonicalWriter()
        w.beginObject()
        w.key("error")
        w.beginObject()
        w.key("exit")
        w.integer(Int(exit))
        w.key("message")
        w.string(recorded?.message ?? otherwise.oneLine)
        w.key("problems")
        w.beginArray()
        for p in recorded?.problems ?? [] {
            w.beginObject()
            w.key("file")
            w.string(p.file)
            w.key("line")
            w.integer(p.line)
            w.key("column")
            w.integer(p.column)
            w.key("field")
            w.string(p.field)
            w.key("message")
            w.string(p.message)
            w.endObject()
        }
        w.endArray()
        w.key("tool")
        w.string(StackLedgerCommand.toolVersion)
        w.endObject()
        w.endObject()
        CommandStreams.current.write(w.text + "\n", to: .error)
    }
}

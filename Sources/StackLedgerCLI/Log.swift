import ArgumentParser
import Forensics
import Ledger
import Projections
import SmartStack

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print stored events with their sequence numbers.",
        discussion: "--json prints NDJSON: each event in canonical form plus \"seq\" and \"recordedAt\".")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only events at or after this time (RFC 3339).", transform: TimeArgument.parse) var from:
        TimeArgument?
    @Option(help: "Only events before this time (RFC 3339).", transform: TimeArgument.parse) var to: TimeArgument?
    @Option(help: "Only events of this type, e.g. widget.timeline.") var type: String?
    @Option(help: "Only events of this app (bundle id).") var app: String?
    @Option(help: "Only events that name this widget kind.") var kind: String?
    @Option(help: "Only events of this device.") var device: String?
    @Flag(help: "Print NDJSON.") var json = false

    func validate() throws {
        let a = from?.timestamp
        let b = to?.timestamp
        if let a, let b, a.microseconds > b.microseconds {
            throw ValidationError("--from \(a.rfc3339) is after --to \(b.rfc3339)")
        }
        if let type, EventType(rawValue: type) == nil {
            throw ValidationError(
                "--type \(type) is not an event type; use one of: \(EventType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    func run() throws {
        let ledger = try openLedger(storeOptions, readOnly: true)
        if let device {
            // A device the store does not hold is a usage error, as for every query.
            let devices = try withLedgerErrors { try Projector(ledger: ledger, policy: Policy()).devices() }
            guard devices.contains(device) else {
                throw fail(
                    "--device \(device.shown): the store has no events of that device; it holds: \(devices.map(\.shown).joined(separator: ", "))",
                    code: ExitCodes.usage)
            }
        }
        let fromMicros = from?.timestamp.microseconds ?? Int64.min
        let toMicros = to?.timestamp.microseconds ?? Int64.max
        var out = StandardOutput()
        try withLedgerErrors {
            try ledger.read { reader in
                let local = try LocalTime(reader: reader)
                let keyed: [UInt64]? = try candidateSeqs(reader)
                func emit(_ view: RecordView) throws {
                    let env = view.envelope
                    guard env.time.microseconds >= fromMicros, env.time.microseconds < toMicros,
                        type.map({ $0 == env.type }) ?? true,
                        device.map({ $0 == env.device }) ?? true,
                        app.map({ $0 == env.app }) ?? true
                    else { return }
                    if json {
                        var w = CanonicalWriter()
                        try view.writeStoredJSON(&w)
                        w.bytes.append(0x0A)
                        out.write(w.bytes)
                    } else {
                        out.write(LogText.line(view: view, event: try Event(record: view), local: local))
                    }
                }
                if let keyed {
                    for seq in keyed { _ = try reader.withRecord(seq) { try emit($0) } }
                } else {
                    try reader.scan { view in
                        try emit(view)
                        return true
                    }
                }
            }
        }
        out.flush()
    }

    /// The sequence numbers the app and kind indices allow, or nil to scan everything.
    private func candidateSeqs(_ reader: LedgerReader) throws -> [UInt64]? {
        var result: [UInt64]?
        if let app { result = try reader.seqs(indexKey: IndexKey(namespace: Event.IndexNamespace.app, value: app)) }
        if let kind {
            let k = try reader.seqs(indexKey: IndexKey(namespace: Event.IndexNamespace.kind, value: kind))
            result =
                result.map { a in
                    let s = Set(k)
                    return a.filter(s.contains)
                } ?? k
        }
        return result
    }
}

public import Ledger
public import SmartStack

/// Runs the Smart Stack engine over a store's log and answers "what was the state at T"
/// and "what was decided between T1 and T2", from checkpoints kept in the store.
///
/// An answer at any instant costs a seek to the newest checkpoint at or before it and a
/// short fold of the events after it. Checkpoints are keyed by device, engine version and
/// policy digest; events recorded late (dated before existing checkpoints) invalidate the
/// checkpoints after their time. Answers are the same, byte for byte, with or without
/// checkpoints.
public final class Projector {
    /// The store.
    public let ledger: Ledger
    /// The policy in force.
    public let policy: Policy
    /// Events per device between two checkpoints at least, unless set otherwise; farther
    /// apart where the checkpoints would take more than `defaultCheckpointShare` of the
    /// log's bytes.
    public static let defaultCheckpointInterval = 224
    /// Events per device between two checkpoints, at least.
    public var checkpointInterval = Projector.defaultCheckpointInterval
    /// The most the checkpoints' values take of the log's bytes (`stats`' `logBytes`),
    /// unless set otherwise: 12 %, which with the pages that hold them keeps the
    /// checkpoints within 15 % of the log on every shape of device measured
    /// (docs/performance.md).
    public static let defaultCheckpointShare = 0.12
    /// The most a device's checkpoints take of its log's bytes (nil: by events alone).
    public var checkpointShare: Double? = Projector.defaultCheckpointShare
    /// Whether to read and save checkpoints.
    public var useCheckpoints = true
    /// Told, during a fold, of the device and the records read so far after each stretch
    /// of them (`chunk`), and a last time with `done` true: for progress lines.
    public var onFoldProgress: ((_ device: String, _ records: Int, _ done: Bool) -> Void)?
    /// Skip records that fail their checksum instead of failing (`--force`); the ones
    /// skipped are listed in `damagedRecords`.
    public var skipsDamagedRecords = false
    /// Records skipped because they failed their checksum, ascending.
    public private(set) var damagedRecords: [UInt64] = []
    /// The store's log bytes per event, with the last sequence number of the log it was
    /// read of: read again only when the log grows (`checkpointSpacing`).
    var logBytesPerEventKept: (lastSeq: UInt64, value: Double?)?
    /// Whether folds read with private copies of the interned strings (for threads that
    /// fold at the same time).
    var privateStrings = false {
        didSet { stringCopies = privateStrings ? PrivateStrings() : nil }
    }
    /// This projector's own copies of the strings, kept across its folds (`privateStrings`).
    private(set) var stringCopies: PrivateStrings?
    /// Events folded per read transaction.
    var chunk = 65_536
    /// Records a lone fold reads itself before it hands reading and decoding to a thread
    /// of its own (`EventPrefetch`); nil: never.
    var prefetchAfter: Int? = 4_096
    /// Records per batch that thread reads.
    var prefetchBatch = EventPrefetch.batchSize
    /// Whether a fold hands its checkpoints to a thread of their own to write (off when
    /// folds already run on every core).
    var backgroundCheckpoints = true
    /// Whether a core has come free while folds ran on every core (a rebuild's last
    /// devices): a fold that sees it hands reading, decoding and checkpoints to threads
    /// of their own from its next stretch of records on. Asked every `spareCoreStretch`
    /// records.
    var spareCore: (@Sendable () -> Bool)?
    var spareCoreStretch = 8_192
    let tag: [UInt8]
    var prepared = false

    /// Creates a projector over a store.
    public init(ledger: Ledger, policy: Policy) {
        self.ledger = ledger
        self.policy = policy
        self.tag = CheckpointKey.engineTag(policy)
    }

    /// The devices with events, sorted by name.
    public func devices() throws -> [String] {
        try ledger.read { try $0.devices() }.sorted()
    }

    /// The engine for `device`, with every event of the query's view up to `time` applied
    /// and its clock advanced to `time`.
    public func engine(device: String, at time: Int64, query: ProjectionQuery = ProjectionQuery()) throws
        -> DeviceEngine
    {
        var engine = try fold(device: device, through: time, query: query, collect: nil)
        engine.advance(to: time)
        _ = engine.takeDecisions()
        return engine
    }

    /// The decisions made on `device` with times in `[from, to]`, in the engine's order.
    public func decisions(device: String, from: Int64, to: Int64, query: ProjectionQuery = ProjectionQuery()) throws
        -> [Decision]
    {
        var engine = try engine(device: device, justBefore: from, query: query)
        var out = [Decision]()
        try step(&engine, to: to, query: query) { out.append($0) }
        return out.filter { $0.time.microseconds >= from && $0.time.microseconds <= to }
    }

    /// The decisions made on `device` with times in `[from, to]`, in the engine's order, and
    /// the engine at `instant` (in `[from, to]`) as `engine(device:at:query:)` gives it:
    /// both from one fold.
    /// `start`: the engine just before `from`, when the caller has it (`ForwardFold`).
    public func decisions(
        device: String, from: Int64, to: Int64, engineAt instant: Int64, query: ProjectionQuery = ProjectionQuery(),
        start: DeviceEngine? = nil
    ) throws -> (decisions: [Decision], engine: DeviceEngine) {
        precondition(from <= instant && instant <= to)
        var engine = try start ?? engine(device: device, justBefore: from, query: query)
        var out = [Decision]()
        try step(&engine, to: instant, query: query) { out.append($0) }
        let atInstant = engine
        try step(&engine, to: to, query: query) { out.append($0) }
        return (out.filter { $0.time.microseconds >= from && $0.time.microseconds <= to }, atInstant)
    }

    /// The earliest event time a what-if changes on `device` (a left-out event's or an
    /// added one's), nil when it changes none.
    func firstAffected(device: String, query: ProjectionQuery) throws -> Int64? {
        var first: Int64?
        for e in query.with where e.envelope.device == device {
            first = min(first ?? .max, e.envelope.time.microseconds)
        }
        if !query.without.isEmpty {
            try ledger.read { r in
                for seq in query.without {
                    try r.withRecord(seq) { view in
                        if view.envelope.device == device {
                            first = min(first ?? .max, view.envelope.time.microseconds)
                        }
                    }
                }
            }
        }
        return first
    }

    func noteDamaged(_ seq: UInt64) {
        if !damagedRecords.contains(seq) {
            damagedRecords.append(seq)
            damagedRecords.sort()
        }
    }

    /// The last sequence number of the longest prefix of the log recorded by `t`.
    func recordedThrough(_ t: Timestamp) throws -> UInt64 {
        var last: UInt64 = 0
        for b in try ledger.read({ try $0.batches() }) {
            guard b.recordedMicros <= t.microseconds else { break }
            last = b.lastSeq
        }
        return last
    }

    /// Folds the view's events up to `limit` into an engine, starting from `start`, else
    /// from the best checkpoint, else from nothing.
    func fold(
        device: String, through limit: Int64, query: ProjectionQuery, start: DeviceEngine? = nil,
        collect: ((Decision) -> Void)?
    ) throws -> DeviceEngine {
        try prepare()
        let eventLimit = min(limit, query.knownAt?.microseconds ?? .max)
        let ceiling = try query.asRecordedAt.map(recordedThrough) ?? ledger.read { try $0.lastSeq() }
        var engine = start ?? DeviceEngine(device: device, policy: policy)
        var position: (time: Int64, seq: UInt64)? = start.map { $0.position }
        if start != nil && position!.seq == 0 { position = nil }
        // A fold from the start takes the stacks the view's observed layouts list; a
        // checkpoint holds those of the whole log, so it serves only a view with the same.
        let layouts =
            start == nil ? try assumedLayouts(device: device, query: query, ceiling: ceiling) : AssumedLayouts()
        if start == nil && useCheckpoints && !skipsDamagedRecords && layouts.matchesWholeLog {
            // A checkpoint serves a what-if only from before the first event it changes.
            var limit = eventLimit
            if let first = try firstAffected(device: device, query: query) { limit = min(limit, first - 1) }
            if let (restored, at) = try checkpoint(device: device, atOrBefore: limit, ceiling: ceiling) {
                engine = restored
                position = at
            }
        }
        if start == nil && position == nil && !layouts.view.isEmpty { engine.assume(layouts: layouts.view) }
        var extras = query.with.enumerated()
            .filter { $0.element.envelope.device == device && $0.element.envelope.time.microseconds <= eventLimit }
            .sorted {
                ($0.element.envelope.time.microseconds, $0.offset) < ($1.element.envelope.time.microseconds, $1.offset)
            }
            .map { (ceiling + 1 + UInt64($0.offset), $0.element) }
        if let at = position {
            extras.removeAll { ($0.1.envelope.time.microseconds, $0.0) <= (at.time, at.seq) }
        }
        let save =
            useCheckpoints && query.isWholeLog && layouts.matchesWholeLog && ledger.canWriteDerived
            && !skipsDamagedRecords
        var run = FoldRun(
            engine: consume engine, position: position, extras: consume extras, collect: collect, saving: save,
            spacing: try checkpointSpacing(saving: save, ceiling: ceiling),
            series: CheckpointSeries(device: device, tag: tag, ceiling: ceiling), inBackground: backgroundCheckpoints)
        // A long lone fold reads and decodes on a thread of its own once it is past its
        // first records (most folds, a query's from its checkpoint, end before).
        let readAheadAfter = backgroundCheckpoints && !skipsDamagedRecords && !privateStrings ? prefetchAfter : nil
        var prefetch: EventPrefetch?
        defer { prefetch?.stop() }
        var done = false
        var folded = 0
        var unstored = 0
        while !done {
            var visited = 0
            done = true
            let spare = prefetch == nil && !skipsDamagedRecords && (spareCore?() ?? false)
            if prefetch == nil, spare || readAheadAfter.map({ folded >= $0 }) ?? false {
                prefetch = EventPrefetch(
                    ledger: ledger, device: device, after: run.position, through: eventLimit,
                    ceiling: ceiling, without: query.without, batchSize: prefetchBatch)
                if spare { run.saveInBackground() }
            }
            if let prefetch {
                while visited < chunk, var items = try prefetch.next() {
                    visited += items.count
                    // Moved out one by one (a batch comes last record first): copying an
                    // item would count references to everything its event holds.
                    while !items.isEmpty {
                        var item = items.removeLast()
                        run.take(time: item.time, seq: item.seq, event: item.event.take())
                    }
                }
                done = visited < chunk
            } else {
                var limit = min(chunk, readAheadAfter.map { max(1, $0 - folded) } ?? chunk)
                if spareCore != nil && !skipsDamagedRecords { limit = min(limit, spareCoreStretch) }
                try read { reader in
                    try reader.forEachRecord(
                        device: device, after: run.position, throughMicros: eventLimit,
                        skippingDamaged: skipsDamagedRecords, damaged: { self.noteDamaged($0) }, identities: false
                    ) { view in
                        visited += 1
                        let (time, seq) = (view.envelope.time.microseconds, view.seq)
                        if seq <= ceiling && !query.without.contains(seq) {
                            // Decoded straight into the argument: an event is a few hundred bytes.
                            run.take(time: time, seq: seq, event: try Event(record: view))
                        } else {
                            run.pass(time: time, seq: seq)
                        }
                        if visited >= limit {
                            done = false
                            return false
                        }
                        return true
                    }
                }
            }
            folded += visited
            // Stored a chunk's worth at a time (one write transaction each), however
            // short the stretches read.
            unstored += visited
            if done || unstored >= chunk {
                unstored = 0
                let made = run.takeCheckpoints(waiting: done)
                if !made.isEmpty { try store(made, ceiling: ceiling) }
            }
            onFoldProgress?(device, folded, done)
        }
        return run.finish()
    }
}

extension Projector {
    /// Runs `body` with a reader whose strings are this projector's own copies when it
    /// folds beside other threads (`privateStrings`), the shared ones otherwise.
    func read<T>(_ body: (LedgerReader) throws -> T) throws -> T {
        if let stringCopies { return try ledger.read(copies: stringCopies, body) }
        return try ledger.read(body)
    }
}

import Ledger
import SmartStack

/// One fold's moving parts: the engine, where it stands in the log, the query's extra
/// events still to apply, and the checkpoints it makes on the way. Held as one value,
/// so that applying a record touches it once.
struct FoldRun {
    var engine: DeviceEngine
    /// The (time, seq) of the last record taken, nil before the first.
    var position: (time: Int64, seq: UInt64)?
    /// The query's extra events, in time order, each with the sequence number it takes.
    private let extras: [(UInt64, Event)]
    private var nextExtra = 0
    /// Where decisions go, if anywhere.
    private let collect: ((Decision) -> Void)?
    /// Whether the fold makes checkpoints, and when the next is due.
    private let saving: Bool
    private var spacing: CheckpointSpacing
    /// Whether the last checkpoint went to the background, its size not yet noted.
    private var sizeAwaited = false
    private var series: CheckpointSeries
    /// Whether checkpoints are written on a thread of their own.
    private var inBackground: Bool
    private var background: BackgroundCheckpoints?
    /// Checkpoints made and not yet stored.
    private var pending = [([UInt8], [UInt8])]()

    init(
        engine: DeviceEngine, position: (time: Int64, seq: UInt64)?, extras: [(UInt64, Event)],
        collect: ((Decision) -> Void)?,
        saving: Bool, spacing: CheckpointSpacing, series: CheckpointSeries, inBackground: Bool
    ) {
        self.engine = engine
        self.position = position
        self.extras = extras
        self.collect = collect
        self.saving = saving
        self.spacing = spacing
        self.series = series
        self.inBackground = inBackground
    }

    /// Applies one record of the log (its event nil when the view leaves it out), after
    /// the extra events dated before it.
    mutating func take(time: Int64, seq: UInt64, event: consuming Event?) {
        guard let event else { return pass(time: time, seq: seq) }
        take(time: time, seq: seq, event: event)
    }

    /// Moves past one record of the log that the view leaves out.
    mutating func pass(time: Int64, seq: UInt64) {
        position = (time, seq)
        spacing.passed()
    }

    /// Applies one record of the log, after the extra events dated before it.
    mutating func take(time: Int64, seq: UInt64, event: consuming Event) {
        position = (time, seq)
        applyExtras(before: time)
        engine.apply(event, seq: seq)
        for d in engine.takeDecisions() { collect?(d) }
        if spacing.took() && saving { saveIfDue(time: time, seq: seq) }
    }

    /// Makes a checkpoint at (time, seq) when the spacing says it is due.
    private mutating func saveIfDue(time: Int64, seq: UInt64) {
        // The last one's size counts: waited for when it is still being encoded.
        if sizeAwaited, let background {
            if let size = background.lastSize() { spacing.record(valueBytes: size) }
            sizeAwaited = false
        }
        guard spacing.due else { return }
        spacing.saved()
        if inBackground {
            if background == nil { background = BackgroundCheckpoints(series) }
            background!.add(engine.checkpointState(), time: time, seq: seq)
            sizeAwaited = true
        } else {
            let entry = series.next(engine, time: time, seq: seq)
            spacing.record(valueBytes: entry.value.count)
            pending.append(entry)
        }
    }

    /// Writes the checkpoints still to make on a thread of their own, the
    /// series going on from the last one made here.
    mutating func saveInBackground() { inBackground = true }

    /// The checkpoints made so far, to store; with `waiting`, after every one queued is.
    mutating func takeCheckpoints(waiting: Bool) -> [([UInt8], [UInt8])] {
        if let background { pending += background.take(waiting: waiting) }
        defer { pending = [] }
        return pending
    }

    /// Applies the extra events left (those dated after the last record) and hands
    /// over the decisions still held.
    mutating func finish() -> DeviceEngine {
        applyExtras(before: .max)
        for d in engine.takeDecisions() { collect?(d) }
        return engine
    }

    /// Applies the extra events dated before `time` that are not applied yet (all of
    /// them for `.max`).
    private mutating func applyExtras(before time: Int64) {
        while nextExtra < extras.count, time == .max || extras[nextExtra].1.envelope.time.microseconds < time {
            engine.apply(extras[nextExtra].1, seq: extras[nextExtra].0)
            nextExtra += 1
        }
    }
}

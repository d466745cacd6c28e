public import SmartStack

/// One device's model carried forward through time by a single fold, for questions asked
/// mostly in time order (judging each record of a device in turn, as calibration does): a
/// question at a later instant folds only the events since the last, and one a little
/// earlier starts from a state kept on the way. Each answer is the engine a `Projector`
/// gives for the same instant; only the first question reads a checkpoint (none, for a
/// projector that does not use them). A question about another view of the log (a
/// what-if, a `--known-at`), or too far back, gets nil, for the projector to answer.
public final class ForwardFold {
    /// The projector whose log and policy the fold follows.
    public let projector: Projector
    /// The device followed.
    public let device: String
    /// The furthest state reached: the events through `runningTime` applied, the clock there.
    private var running: DeviceEngine?
    private var runningTime = Int64.min
    /// Earlier states of the running engine, oldest first, each with its time: at most
    /// `keptStates`, none more than `keptSpan` before the running one.
    private var kept: [(time: Int64, engine: DeviceEngine)] = []
    /// How many earlier states are kept.
    static let keptStates = 64
    /// How far back (microseconds of device time) earlier states are kept: a day.
    static let keptSpan: Int64 = 86_400_000_000

    /// A fold of `device` under `projector`'s policy. `concurrent`: other folds run on
    /// other threads at the same time (each then reads with its own copies of the strings).
    public init(projector: Projector, device: String, concurrent: Bool = false) {
        self.projector = projector
        self.device = device
        if concurrent { projector.privateStrings = true }
    }

    /// The engine with every event before `t` applied and its clock just before `t`, as
    /// `Projector` starts a walk or a window of decisions at `t`; nil for a view other
    /// than the whole log, or an instant before every state kept.
    public func engine(justBefore t: Int64, query: ProjectionQuery) throws -> DeviceEngine? {
        guard query.isWholeLog, query.knownAt == nil else { return nil }
        let target = t - 1
        guard var engine = running else {
            let first = try projector.engine(device: device, justBefore: t, query: query)
            (running, runningTime) = (first, target)
            return first
        }
        if runningTime <= target {
            if runningTime < target {
                kept.append((runningTime, engine))
                try projector.step(&engine, to: target, query: query) { _ in }
                (running, runningTime) = (engine, target)
                kept.removeAll { $0.time < target - Self.keptSpan }
                if kept.count > Self.keptStates { kept.removeFirst(kept.count - Self.keptStates) }
            }
            return engine
        }
        guard var earlier = kept.last(where: { $0.time <= target })?.engine else { return nil }
        try projector.step(&earlier, to: target, query: query) { _ in }
        return earlier
    }

    /// The engine with every event through `t` applied and its clock at `t`, as
    /// `Projector.engine(device:at:query:)` gives it; nil as for `engine(justBefore:query:)`.
    public func engine(at t: Int64, query: ProjectionQuery) throws -> DeviceEngine? {
        guard var engine = try engine(justBefore: t, query: query) else { return nil }
        try projector.step(&engine, to: t, query: query) { _ in }
        return engine
    }
}

extension DeviceEngine {
    /// The version of the engine's behaviour and state layout: part of every checkpoint's
    /// key, so a new engine never reuses an old checkpoint.
    public static let engineVersion = 6

    /// The engine's whole state as bytes; `init(checkpoint:policy:)` restores it exactly.
    public func checkpoint() -> [UInt8] {
        CheckpointState(state, usageHorizon: usageHorizon).bytes()
    }

    /// The engine's state as a value to turn into `checkpoint()` bytes later, on any
    /// thread, while the engine moves on.
    public func checkpointState() -> CheckpointState {
        CheckpointState(state, dayEdits: caches.usageEdits.days, usageHorizon: usageHorizon)
    }

    /// Restores an engine from `checkpoint()` bytes, under the policy it was made with.
    /// - Throws: an error for bytes that are not a whole checkpoint.
    public init(checkpoint bytes: [UInt8], policy: Policy) throws {
        self.policy = policy
        self.parameters = policy.parameters
        var r = StateReader(bytes)
        self.state = try DeviceModel(&r)
    }

    /// The start of the pattern window: usage records at or before it count no more.
    var usageHorizon: Int64 { state.now == .min ? .min : state.now - patternWindowMicros }
}

/// An engine's state at one instant, held apart from the engine (its storage is shared
/// until the engine changes it).
public struct CheckpointState: Sendable {
    let model: DeviceModel
    /// The engine's last edit of each day's usage records (see `UsageEdits.days`).
    let dayEdits: DayEdits
    /// Days of usage records wholly at or before it are not written.
    let usageHorizon: Int64

    init(_ model: DeviceModel, dayEdits: DayEdits = DayEdits(), usageHorizon: Int64) {
        self.model = model
        self.dayEdits = dayEdits
        self.usageHorizon = usageHorizon
    }

    /// The state as the bytes `DeviceEngine.checkpoint()` gives.
    public func bytes() -> [UInt8] {
        var w = StateWriter()
        model.write(&w, usageHorizon: usageHorizon)
        return w.bytes
    }

    /// The same bytes, copying those of each day's usage records that `days` holds from
    /// the engine's previous state given to it, when the engine has not edited that day
    /// since (`days.copies` then says which runs of bytes were copied from where). `days`
    /// serves the states of one engine, in order.
    public func bytes(reusing days: inout UsageDays) -> [UInt8] {
        var w = StateWriter()
        model.write(&w, reusing: &days, dayEdits: dayEdits, usageHorizon: usageHorizon)
        return w.bytes
    }
}

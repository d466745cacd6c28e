extension DeviceEngine {
    /// The version of the engine's behaviour and state layout: part of every checkpoint's
    /// key, so a new engine never reuses an old checkpoint.
    public static let engineVersion = 4

    /// The engine's whole state as bytes; `init(checkpoint:policy:)` restores it exactly.
    public func checkpoint() -> [UInt8] {
        var w = StateWriter()
        state.write(&w)
        return w.bytes
    }

    /// Restores an engine from `checkpoint()` bytes, under the policy it was made with.
    /// - Throws: an error for bytes that are not a whole checkpoint.
    public init(checkpoint bytes: [UInt8], policy: Policy) throws {
        self.policy = policy
        var r = StateReader(bytes)
        self.state = try DeviceModel(&r)
    }
}

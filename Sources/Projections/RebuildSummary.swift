public import SmartStack

/// What `rebuild` did: the devices and events folded, how long it took, and the checkpoints
/// the store then holds for the policy.
public struct RebuildSummary: Sendable {
    /// The devices whose checkpoints were made.
    public var devices: Int
    /// The events folded.
    public var events: Int
    /// The rebuild's wall-clock seconds.
    public var seconds: Double
    /// The checkpoints of the policy the store holds afterwards.
    public var checkpoints: Int
    /// Their bytes.
    public var checkpointBytes: Int

    /// A rebuild's figures.
    public init(devices: Int, events: Int, seconds: Double, checkpoints: Int, checkpointBytes: Int) {
        self.devices = devices
        self.events = events
        self.seconds = seconds
        self.checkpoints = checkpoints
        self.checkpointBytes = checkpointBytes
    }

    /// `rebuild --json`'s answer (docs/queries.md), with the policy in force and the tool.
    public func writeJSON(_ w: inout CanonicalWriter, policy: Policy, tool: String) {
        w.beginObject()
        w.key("devices")
        w.integer(devices)
        w.key("events")
        w.integer(events)
        w.key("seconds")
        w.number((seconds * 1000).rounded() / 1000)
        w.key("checkpoints")
        w.integer(checkpoints)
        w.key("checkpointBytes")
        w.integer(checkpointBytes)
        ProjectionJSON.writeHeader(&w, policy: policy, tool: tool)
        w.endObject()
    }
}

import SmartStack

/// The checkpoints one fold makes, in order: the first stands alone; the next ones are
/// deflated against the one before, with a standalone one every
/// `CheckpointKey.keyframeInterval`.
struct CheckpointSeries {
    let device: String
    let tag: [UInt8]
    /// The length of the log the fold reads.
    let ceiling: UInt64
    private var made = 0
    private var previous: (time: Int64, seq: UInt64, state: [UInt8])?

    init(device: String, tag: [UInt8], ceiling: UInt64) {
        self.device = device
        self.tag = tag
        self.ceiling = ceiling
    }

    /// The key and value of a checkpoint of `engine`, which stands at (time, seq).
    mutating func next(_ engine: DeviceEngine, time: Int64, seq: UInt64) -> (key: [UInt8], value: [UInt8]) {
        let state = engine.checkpoint()
        let base = made % CheckpointKey.keyframeInterval == 0 ? nil : previous
        let entry = (CheckpointKey.key(device, tag, time: time, seq: seq),
                     CheckpointValue.encode(highSeq: ceiling, state: state, base: base))
        previous = (time, seq, state)
        made += 1
        return entry
    }
}

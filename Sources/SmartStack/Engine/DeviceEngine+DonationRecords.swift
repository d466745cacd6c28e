import RecordFormat

extension DeviceEngine {
    /// The donations of `intent` within the pattern window before the engine's instant,
    /// from every hour, in the order they are stored (by hour, then time). The records of
    /// other intents are passed over by their hash and read in place, so that a search of
    /// the whole window copies only the records it finds.
    func donations(of intent: String) -> [UsageRecord] {
        var found = [UsageRecord]()
        let intentHash = StringHash.of(intent)
        let since = state.now - patternWindowMicros
        for hour in state.usage.indices {
            state.usage[hour].withUnsafeBufferPointer { records in
                for k in records.indices
                where records[k].signature.intentHash == intentHash && records[k].time > since
                    && records[k].time <= state.now && records[k].signature.intent == intent
                {
                    found.append(records[k])
                }
            }
        }
        return found
    }
}

import Ledger
import SmartStack

extension Projector {
    /// Checks every checkpoint in the store against the log: the record its key names
    /// exists, belongs to its device and has its time; the log it was made from is no
    /// longer than the store's; and, for this engine and policy, its state decodes and
    /// stands at that record. Returns how many were checked and the problems found.
    public func checkCheckpoints() throws -> (checked: Int, problems: [String]) {
        var problems = [String]()
        var checked = 0
        let last = try ledger.read { try $0.lastSeq() }
        // Entries come in key order, so a checkpoint's base is most often the one just
        // checked: its state starts the chain instead of being put together again.
        var previous: (key: [UInt8], state: [UInt8])?
        // One entry at a time in one read, handing the store's pages back every so often:
        // memory stays flat however many checkpoints there are.
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.root) { k, v in
                checked += 1
                if checked % Projector.checkpointsBetweenReleases == 0 { r.releaseMappedPages() }
                problems += try check(key: Array(k), value: Array(v), last: last, previous: &previous, in: r)
            }
        }
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointFloors.root) { k, v in
                if CheckpointFloors(Array(v)) == nil {
                    let device = CheckpointFloors.owner(ofKey: k)?.device ?? "?"
                    problems.append(
                        "the checkpoint floors of \(device) are malformed (\(v.count) bytes); none of its checkpoints serves an answer; the next query drops them"
                    )
                }
            }
        }
        return (checked, problems)
    }

    /// Checkpoints checked between two hand-backs of the store's pages.
    static let checkpointsBetweenReleases = 1_024

    /// The problems with one checkpoint; `previous` is the last state decoded.
    private func check(
        key: [UInt8], value: [UInt8], last: UInt64, previous: inout (key: [UInt8], state: [UInt8])?,
        in r: LedgerReader
    ) throws -> [String] {
        let body = key.dropFirst(CheckpointKey.root.count)
        guard let zero = body.firstIndex(of: 0), body.count - (zero - body.startIndex) - 1 == 24,
            let (time, seq) = CheckpointKey.position(key), let parsed = CheckpointValue(value)
        else {
            return ["a checkpoint key or value is malformed (\(key.count) key bytes)"]
        }
        let device = String(decoding: body[body.startIndex..<zero], as: UTF8.self)
        let tag = Array(body[(zero + 1)..<(zero + 9)])
        let whereAbout = "the checkpoint of \(device) at seq \(seq)"
        let record = try r.withRecord(seq) { ($0.envelope.device, $0.envelope.time.microseconds) }
        guard let (d, t) = record, d == device, t == time else {
            return ["\(whereAbout) names a record that is missing or of another device or time"]
        }
        var problems = [String]()
        if parsed.highSeq < seq || parsed.highSeq > last {
            problems.append("\(whereAbout) claims a log of \(parsed.highSeq) records; the store holds \(last)")
        }
        guard tag == self.tag else { return problems }
        do {
            guard let restored = try state(of: parsed, device: device, tag: tag, in: r, known: previous) else {
                return problems + [
                    "\(whereAbout) cannot be restored (it, or a checkpoint it copies from, is damaged or missing)"
                ]
            }
            previous = (key, restored)
            let engine = try DeviceEngine(checkpoint: restored, policy: policy)
            if engine.device != device || engine.position.seq != seq || engine.position.time != time {
                problems.append("\(whereAbout) holds the state of \(engine.device) at seq \(engine.position.seq)")
            }
        } catch {
            problems.append("\(whereAbout) cannot be decoded: \(error)")
        }
        return problems
    }
}

import Ledger
import SmartStack
import StackLedgerTesting
import Testing

@testable import Projections

/// Checkpoints spaced by their bytes as well as by events: a device whose state is large
/// against its events gets them farther apart, so that they take at most a set share of
/// its log, at the same records whichever thread encodes them.
@Suite("Checkpoint spacing")
struct CheckpointSpacingTests {
    @Test("due after the interval's events, then after enough log for the mean of the last checkpoints' bytes")
    func rule() {
        var spacing = CheckpointSpacing(interval: 4, share: 0.1, bytesPerEvent: 100)
        #expect(!spacing.took() && !spacing.took() && !spacing.took())
        #expect(spacing.took() && spacing.due)
        spacing.saved()
        spacing.record(valueBytes: 1_000)
        for _ in 0..<4 { _ = spacing.took() }
        // 400 bytes of log pay for 40 bytes of checkpoint, not for 1,000; records read past
        // are log too.
        #expect(!spacing.due)
        for _ in 0..<95 { spacing.passed() }
        #expect(!spacing.due)
        spacing.passed()
        #expect(spacing.due)
        spacing.saved()
        // Paid for at the mean of the last ones: 1,000 and 100 ask for 5,500 bytes of log.
        spacing.record(valueBytes: 100)
        for _ in 0..<54 { _ = spacing.took() }
        #expect(!spacing.due)
        _ = spacing.took()
        #expect(spacing.due)
        // The window forgets the oldest.
        for _ in 0..<spacing.window { spacing.record(valueBytes: 10) }
        #expect(spacing.due)
        #expect(!CheckpointSpacing(interval: 4, share: nil, bytesPerEvent: 100).due)
    }

    /// The bytes of a device's log (its events at the store's log bytes per event), of its
    /// checkpoints' values and of the last one, after a fold of it from scratch that keeps
    /// `share`.
    static func footprint(_ ledger: Ledger, device: String, share: Double?) throws -> (
        log: Int, checkpoints: Int, last: Int
    ) {
        let projector = Projector(ledger: ledger, policy: Policy())
        (projector.checkpointInterval, projector.checkpointShare) = (Projector.defaultCheckpointInterval, share)
        try projector.dropCheckpoints(of: [device])
        _ = try projector.fold(device: device, through: .max, query: ProjectionQuery(), collect: nil)
        var (checkpoints, last) = (0, 0)
        let events = try ledger.read { r in try r.eventCount(device: device) }
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.root) { _, v in
                last = v.count
                checkpoints += last
            }
        }
        return (Int(Double(events) * (try ledger.logBytesPerEvent() ?? 0)), checkpoints, last)
    }

    /// 12,000 events of the many-stacks shape, decoded.
    static func manyStacksEvents(seed: UInt64) throws -> [Event] {
        var generator = ShapeGenerator(shape: .manyStacks, events: 12_000, seed: seed)
        var decoder = EventDecoder()
        var events = [Event]()
        try generator.writeNDJSON { chunk in
            for line in chunk.split(separator: UInt8(ascii: "\n")) {
                events.append(try decoder.decode(String(decoding: line, as: UTF8.self)))
            }
        }
        return events
    }

    @Test("a device of many stacks: its checkpoints take at most 15 % of its log's bytes, beside the last few")
    func shareOfManyStacks() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = try Self.manyStacksEvents(seed: 5)
        _ = try ledger.append(events)
        let device = try Projector(ledger: ledger, policy: Policy()).devices()[0]
        let dense = try Self.footprint(ledger, device: device, share: nil)
        let spaced = try Self.footprint(ledger, device: device, share: 0.15)
        // Spaced by events alone, the states of 40-200 stacks outweigh the share.
        #expect(Double(dense.checkpoints) > 0.15 * Double(dense.log), "\(dense)")
        #expect(spaced.log == dense.log && spaced.checkpoints > 0)
        // Each checkpoint was paid for, at the mean size of the last ones, by the log read
        // after it: the last, and the mean's lag behind a state that grows, are left over.
        #expect(Double(spaced.checkpoints - 2 * spaced.last) <= 0.15 * Double(spaced.log), "\(spaced)")
    }

    @Test("a refold after a late event spaces the checkpoints it remakes as every fold does")
    func reconcileSpacesByBytes() throws {
        let store = ScratchStore()
        defer { store.cleanup() }
        let ledger = try store.ledger()
        let events = try Self.manyStacksEvents(seed: 7)
        _ = try ledger.append(events)
        let projector = Projector(ledger: ledger, policy: Policy())
        let device = try projector.devices()[0]
        // Checkpoints every 32 events, so that the refold meets many stale ones.
        (projector.checkpointInterval, projector.checkpointShare) = (32, nil)
        _ = try projector.fold(device: device, through: .max, query: ProjectionQuery(), collect: nil)
        // A stack created early, late: no later state is the one stored, so the refold runs on.
        let early = events[events.count / 10].envelope.time
        var decoder = EventDecoder()
        let late = try decoder.decode(
            #"{"type":"stack.created","time":"\#(early.rfc3339)","device":"\#(device)","id":"late-stack","stack":"late-stack","platform":"iOS","family":"systemSmall"}"#
        )
        _ = try ledger.append([late])
        var newest: Int64?
        try ledger.read { r in
            try r.derivedEntries(prefix: CheckpointKey.root) { k, _ in
                newest = CheckpointKey.position(Array(k))?.time ?? newest
            }
        }
        var span = LateSpan()
        span.note(early.microseconds, newestCheckpoint: newest)
        let ceiling = try ledger.read { try $0.lastSeq() }
        func remade(share: Double?) throws -> [(key: [UInt8], value: [UInt8])] {
            projector.checkpointShare = share
            return try #require(projector.reconcile(device: device, span: span, ceiling: ceiling)).made
        }
        let dense = try remade(share: nil)
        let spaced = try remade(share: 0.15)
        #expect(dense.count > 20, "\(dense.count)")
        // The states of 40-200 stacks are paid for with the log read: far fewer of them.
        #expect(spaced.count > 0 && spaced.count * 3 < dense.count, "\(spaced.count) of \(dense.count)")
    }
}

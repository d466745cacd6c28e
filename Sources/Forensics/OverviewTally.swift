import Dispatch
package import Ledger
import RecordFormat
import SmartStack
import Synchronization

/// What every device's overview is made of, taken from the log in sequence order and
/// extended by the records each commit adds, so that an overview after a commit reads the
/// new records only: each device's events per UTC hour, its latest event's offset, and
/// the sequence numbers of the events an overview reads whole (the device records and the
/// stacks' creations).
package struct OverviewTally: Sendable {
    /// One device's part.
    struct DeviceTally: Sendable {
        /// Events per UTC hour start, but for the run being counted.
        var hours: [Int64: Int] = [:]
        /// The hour whose events are being counted, and how many so far: a device's events
        /// come in time order, mostly, so most events only add to the run.
        var runHour: Int64 = .min
        var runCount = 0
        /// The latest event in (time, seq) order, and its offset from UTC in minutes.
        var latest: (time: Int64, seq: UInt64) = (.min, 0)
        var latestOffset: Int16 = 0
        /// Events that may be device records, as (time, seq).
        var candidates: [(time: Int64, seq: UInt64)] = []
        /// `stack.created` events, as (time, seq): read whole when an overview is made.
        var creations: [(time: Int64, seq: UInt64)] = []

        mutating func count(hour: Int64) {
            if hour == runHour {
                runCount += 1
                return
            }
            closeRun()
            (runHour, runCount) = (hour, 1)
        }

        mutating func closeRun() {
            if runCount > 0 { hours[runHour, default: 0] += runCount }
            (runHour, runCount) = (.min, 0)
        }

        mutating func merge(_ other: DeviceTally) {
            closeRun()
            for (hour, n) in other.hours { hours[hour, default: 0] += n }
            if other.runCount > 0 { hours[other.runHour, default: 0] += other.runCount }
            if other.latest > latest { (latest, latestOffset) = (other.latest, other.latestOffset) }
            candidates += other.candidates
            creations += other.creations
        }

        /// Events per bucket of `length` microseconds (a whole number of hours), ascending.
        func buckets(every length: Int64) -> [DeviceOverview.Bucket] {
            var perBucket = [Int64: Int]()
            for (hour, n) in hours { perBucket[DeviceOverview.start(of: hour, every: length), default: 0] += n }
            if runCount > 0 { perBucket[DeviceOverview.start(of: runHour, every: length), default: 0] += runCount }
            return perBucket.sorted { $0.key < $1.key }.map {
                DeviceOverview.Bucket(start: $0.key, events: $0.value, records: 0)
            }
        }
    }

    /// The last sequence number taken in.
    package internal(set) var throughSeq: UInt64 = 0
    var tallies: [DeviceTally] = []
    /// Each device's tally, by the device's string id.
    var deviceIndex: [UInt32: Int] = [:]
    /// How many records this value's own reads took in (not those of a stored tally it was read from).
    package private(set) var recordsRead: UInt64 = 0
    /// What each type is to an overview, by the type's string id (`.unknown`: not yet looked up).
    private var kinds: [Kind] = []

    package init() {}

    static let hourMicros: Int64 = 3_600_000_000

    /// Takes in the records after `throughSeq` up to `lastSeq`; a stretch longer than
    /// `splitAbove` records in `threads` parts at once, each read in its own transaction and
    /// merged in order.
    package mutating func extend(
        _ ledger: Ledger, through lastSeq: UInt64, threads: Int = 2, splitAbove: UInt64 = 200_000
    ) throws {
        guard lastSeq > throughSeq else { return }
        let gap = lastSeq - throughSeq
        let count = gap <= splitAbove ? 1 : UInt64(max(1, threads))
        let start = throughSeq
        let parts = Mutex<[Int: Result<OverviewTally, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: Int(count)) { k in
            var part = OverviewTally()
            part.throughSeq = start + gap * UInt64(k) / count
            let result = Result {
                try ledger.read(privateStrings: true) {
                    try part.extend($0, through: start + gap * UInt64(k + 1) / count)
                }
                return part
            }
            parts.withLock { $0[k] = result }
        }
        for k in 0..<Int(count) { merge(try parts.withLock { $0[k]! }.get()) }
    }

    /// Adds `other`, a tally of the records right after this one's.
    mutating func merge(_ other: OverviewTally) {
        for (device, j) in other.deviceIndex {
            tallies[tallyIndex(of: device)].merge(other.tallies[j])
        }
        throughSeq = max(throughSeq, other.throughSeq)
        recordsRead += other.recordsRead
    }

    /// Where the tally of device `id` is, a new one made the first time.
    private mutating func tallyIndex(of id: UInt32) -> Int {
        if let known = deviceIndex[id] { return known }
        deviceIndex[id] = tallies.count
        tallies.append(DeviceTally())
        return tallies.count - 1
    }

    /// Takes in the records after `throughSeq` up to `lastSeq`, read by `r`.
    package mutating func extend(_ r: LedgerReader, through lastSeq: UInt64) throws {
        guard lastSeq > throughSeq else { return }
        var device = UInt32.max
        var index = -1
        try r.scanStamps((throughSeq + 1)...lastSeq) { stamp in
            if stamp.deviceID != device {
                device = stamp.deviceID
                index = tallyIndex(of: device)
            }
            let time = stamp.micros
            tallies[index].count(hour: DeviceOverview.start(of: time, every: Self.hourMicros))
            if (time, stamp.seq) > tallies[index].latest {
                tallies[index].latest = (time, stamp.seq)
                tallies[index].latestOffset = stamp.offsetMinutes
            }
            switch kind(of: stamp.typeID, reader: r) {
            case .other, .unknown: break
            case .candidate: tallies[index].candidates.append((time, stamp.seq))
            case .created: tallies[index].creations.append((time, stamp.seq))
            }
            recordsRead += 1
            return true
        }
        throughSeq = lastSeq
    }

    /// What type `id` is to an overview, looked up once.
    private mutating func kind(of id: UInt32, reader r: LedgerReader) -> Kind {
        let i = Int(id)
        if i < kinds.count, kinds[i] != .unknown { return kinds[i] }
        if i >= kinds.count { kinds += Array(repeating: .unknown, count: i + 1 - kinds.count) }
        kinds[i] = r.string(id: id).map(Kind.init) ?? .other
        return kinds[i]
    }

    private enum Kind {
        case unknown, other, candidate, created

        init(_ type: String) {
            if DeviceOverview.mayBeRecord(type) {
                self = .candidate
            } else if type == EventType.stackCreated.rawValue {
                self = .created
            } else {
                self = .other
            }
        }
    }

    /// The overview of `device` as of `throughSeq`, reading its device records whole.
    package func overview(device: String, reader r: LedgerReader) throws -> DeviceOverview {
        var overview = DeviceOverview(device: device)
        guard let id = r.stringID(of: device), let index = deviceIndex[id], let span = try r.eventSpan(device: device)
        else { return overview }
        let tally = tallies[index]
        overview.events = span.count
        overview.first = span.first
        overview.last = span.last
        if span.last - span.first <= 3 * 86_400_000_000 { overview.bucketMicros = Self.hourMicros }
        overview.buckets = tally.buckets(every: overview.bucketMicros)
        overview.offsetMinutes = Int(tally.latestOffset)
        var layouts = LayoutAssumptions()
        for created in tally.creations {
            guard
                let stack = try r.withRecord(
                    created.seq,
                    { view -> String? in
                        guard case .stackCreated(let made) = try Event(record: view).body else { return nil }
                        return made.stack
                    }), let stack
            else { continue }
            layouts.created(stack, at: (created.time, created.seq))
        }
        // Records are read in (time, sequence) order, so each finds its bucket at or
        // after the previous one's.
        var bucket = 0
        for candidate in tally.candidates.sorted(by: { ($0.time, $0.seq) < ($1.time, $1.seq) }) {
            guard let record = try r.withRecord(candidate.seq, { try DeviceOverview.record($0, layouts: &layouts) }),
                let record
            else { continue }
            overview.count(record, from: &bucket)
        }
        overview.open = overview.openingDay()
        return overview
    }
}

package import Ledger
import RecordFormat
package import SmartStack

/// The whole of one device's log at a glance, for the page's overview: how many events and
/// device records fall in each day (each hour when the log spans three days or less), every
/// device record with its time, and the day the evidence is densest, where the page opens.
/// Made from an `OverviewTally` of the log's record headers, except for the few device
/// records, which are read whole.
package struct DeviceOverview: Sendable {
    /// One bucket of time: its start and what falls in it.
    package struct Bucket: Sendable, Equatable {
        package var start: Int64
        package var events: Int
        package var records: Int
    }

    /// A device record: the device's own account of what it showed or did, with the
    /// assumptions (`AssumptionCode`) that answers resting on it can list.
    package struct Record: Sendable, Equatable {
        package var seq: UInt64
        package var time: Int64
        package var type: String
        package var stack: String?
        package var assumptions: [String] = []
    }

    package var device: String
    package var events = 0
    package var first: Int64 = 0
    package var last: Int64 = 0
    /// The offset from UTC of the device's last event, in minutes (its local time).
    package var offsetMinutes = 0
    package var bucketMicros: Int64 = 86_400_000_000
    package var buckets: [Bucket] = []
    /// The device records, in time order, at most `recordLimit` of them.
    package var records: [Record] = []
    /// Device records beyond `recordLimit`, not listed.
    package var recordsLeftOut = 0
    /// The start of the UTC day the page opens on: the one with the most device records
    /// (the latest of equals), else the day of the last event.
    package var open: Int64 = 0

    /// The most device records an overview lists.
    package static let recordLimit = 20_000

    /// Whether an event of this type can be a device record (docs/events.md, "Device
    /// records"); a tap is one only when imported from the device's own artifacts.
    static func mayBeRecord(_ type: String) -> Bool {
        type == EventType.stackObserved.rawValue || type == EventType.stackRotated.rawValue
            || type == EventType.suggestionObserved.rawValue || type == EventType.layoutObserved.rawValue
            || type == EventType.relevanceObserved.rawValue || type == EventType.widgetTapped.rawValue
    }

    /// The overview of `device`'s whole log (`OverviewTally` keeps it up to date commit by commit).
    package static func collect(ledger: Ledger, device: String) throws -> DeviceOverview {
        var tally = OverviewTally()
        try tally.extend(ledger, through: try ledger.read { try $0.lastSeq() })
        return try ledger.read { try tally.overview(device: device, reader: $0) }
    }

    /// Counts a device record in its bucket, at or after bucket `index` (records come in
    /// time order), and lists it unless `recordLimit` are listed.
    mutating func count(_ record: Record, from index: inout Int) {
        let bucket = bucketStart(record.time)
        while buckets[index].start < bucket { index += 1 }
        buckets[index].records += 1
        if records.count < Self.recordLimit {
            records.append(record)
        } else {
            recordsLeftOut += 1
        }
    }

    func bucketStart(_ t: Int64) -> Int64 { Self.start(of: t, every: bucketMicros) }

    /// The start of the UTC bucket of `length` microseconds that holds `t`.
    static func start(of t: Int64, every length: Int64) -> Int64 {
        let (q, r) = t.quotientAndRemainder(dividingBy: length)
        return (r < 0 ? q - 1 : q) * length
    }

    /// The record a stored event is, if it is a device record; `layouts` are taken in time
    /// order, for the stacks each observed layout alone defines before its time.
    static func record(_ view: RecordView, layouts: inout LayoutAssumptions) throws -> Record? {
        let event = try Event(record: view)
        let stack: String?
        var assumptions = [String]()
        switch event.body {
        case .stackObserved(let o): stack = o.stack
        case .stackRotated(let r): stack = r.stack
        case .suggestionObserved(let o): stack = o.stack
        case .widgetTapped(let tap):
            guard view.envelope.source != nil else { return nil }
            stack = tap.stack
        case .layoutObserved(let layout):
            stack = nil
            assumptions = layouts.codes(of: layout, event: event, seq: view.seq)
        case .relevanceObserved:
            stack = nil
            assumptions = [AssumptionCode.relevanceFromDeviceRecord.rawValue]
        default: return nil
        }
        return Record(
            seq: view.seq, time: event.envelope.time.microseconds, type: view.envelope.type, stack: stack,
            assumptions: assumptions)
    }

    func openingDay() -> Int64 {
        func dayOf(_ t: Int64) -> Int64 { Self.start(of: t, every: 86_400_000_000) }
        var perDay = [Int64: Int]()
        for record in records { perDay[dayOf(record.time), default: 0] += 1 }
        guard let best = perDay.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return dayOf(last) }
        return best.key
    }

    /// Writes the overview as the API's JSON.
    package func writeJSON(_ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("device")
        w.string(device)
        w.key("events")
        w.integer(events)
        w.key("first")
        w.time(Timestamp(microseconds: first))
        w.key("last")
        w.time(Timestamp(microseconds: last))
        w.key("offsetMinutes")
        w.integer(offsetMinutes)
        w.key("bucketSeconds")
        w.integer(Int(bucketMicros / 1_000_000))
        w.key("buckets")
        w.beginArray()
        for bucket in buckets {
            w.beginArray()
            w.time(Timestamp(microseconds: bucket.start))
            w.integer(bucket.events)
            w.integer(bucket.records)
            w.endArray()
        }
        w.endArray()
        w.key("records")
        w.beginArray()
        for record in records {
            w.beginObject()
            w.key("seq")
            w.integer(Int(record.seq))
            w.key("time")
            w.time(Timestamp(microseconds: record.time))
            w.key("type")
            w.string(record.type)
            w.key("stack")
            if let stack = record.stack { w.string(stack) } else { w.null() }
            w.key("assumptions")
            w.beginArray()
            for code in record.assumptions { w.string(code) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("recordsLeftOut")
        w.integer(recordsLeftOut)
        w.key("open")
        w.time(Timestamp(microseconds: open))
        w.endObject()
    }
}

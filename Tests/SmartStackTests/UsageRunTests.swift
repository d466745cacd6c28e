import Testing

@testable import SmartStack

/// An hour's run of usage records in a checkpoint, with and without donation identifiers
/// and group identifiers, reads back as written; a run cut short or naming no entry of the
/// day's table is refused.
@Suite("Usage records read from a checkpoint")
struct UsageRunTests {
    static let table = [
        UsageSignature(app: "com.example.coffee", intent: "OrderIntent", parameters: ["size": "\"large\""]),
        UsageSignature(app: "com.example.coffee", intent: nil, parameters: [:]),
    ]

    /// Records with times far apart and close together, tags on some, a deletion on one.
    static let records: [UsageRecord] = (0..<9).map(record)

    static func record(_ i: Int) -> UsageRecord {
        let gap: Int64 = i % 2 == 0 ? 3_599_000_000 : 17
        let donationId: String? = i == 3 || i == 8 ? "d-\(i)" : nil
        let groupIdentifier: String? = i == 4 || i == 8 ? "g-\(i)" : nil
        return UsageRecord(
            time: 1_780_000_000_000_000 + Int64(i) * gap, hour: 7, seq: 40_000 + UInt64(i * i),
            signature: table[i % 2], donationId: donationId, groupIdentifier: groupIdentifier,
            deletedBy: i == 5 ? 99_999 : nil)
    }

    /// The run's bytes as a checkpoint's day section holds them: its count, then its records.
    static func run(_ records: [UsageRecord]) -> [UInt8] {
        var w = StateWriter()
        w.varint(UInt64(records.count))
        var previous: (time: Int64, seq: UInt64) = (0, 0)
        for var record in records {
            withUnsafePointer(to: &record) {
                UsageRecord.write($0, &w, after: previous, signature: $0.pointee.intent == nil ? 1 : 0)
            }
            previous = (record.time, record.seq)
        }
        return w.bytes
    }

    @Test("records with and without tags read back as written, in order")
    func readsBackEveryRecord() throws {
        let bytes = Self.run(Self.records)
        var r = StateReader(bytes)
        var model = DeviceModel(device: "d")
        model.usage[7] = [Self.records[0]]
        try model.readUsage(&r, hour: 7, table: Self.table, daysLeft: 3)
        #expect(r.offset == bytes.count)
        #expect(model.usage[7] == [Self.records[0]] + Self.records)
        #expect(model.usage[7][4].donationId == "d-3")
        #expect(model.usage[7][9].groupIdentifier == "g-8")
        #expect(model.usage[7][6].deletedBy == 99_999)
        #expect(model.usage[7][1].signature === Self.table[0])
    }

    @Test("a run cut short anywhere is refused as malformed")
    func truncatedRunIsMalformed() {
        let bytes = Self.run(Self.records)
        for end in 1..<bytes.count {
            var r = StateReader(Array(bytes[..<end]))
            var model = DeviceModel(device: "d")
            #expect(throws: StateReader.Malformed.self) {
                try model.readUsage(&r, hour: 7, table: Self.table, daysLeft: 0)
            }
        }
    }

    @Test("a record naming no entry of the day's table is refused")
    func entryOutsideTheTableIsMalformed() {
        var r = StateReader(Self.run(Self.records))
        var model = DeviceModel(device: "d")
        #expect(throws: StateReader.Malformed.self) {
            try model.readUsage(&r, hour: 7, table: [Self.table[0]], daysLeft: 0)
        }
    }
}

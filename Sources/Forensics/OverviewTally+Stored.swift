package import Ledger
import RecordFormat

/// The tally kept in the store's derived data (`rebuild` saves it; `serve` saves it again
/// as the log grows), so that a new server reads it and the records after it, not the log.
extension OverviewTally {
    /// The derived data's key of the tally.
    static let derivedKey = Array("overview-tally".utf8)
    /// The layout of the stored form; another one is not read (the tally is made again).
    static let storedVersion: UInt8 = 1

    /// The tally the store keeps, if it keeps one this build reads.
    package static func stored(in ledger: Ledger) throws -> OverviewTally? {
        guard let bytes = try ledger.read({ try $0.derived(derivedKey) }) else { return nil }
        return bytes.withUnsafeBytes { OverviewTally(stored: $0) }
    }

    /// Keeps the tally in the store's derived data, when the store can take it and keeps
    /// none of a longer log.
    package func save(to ledger: Ledger) throws {
        guard ledger.canWriteDerived else { return }
        let bytes = encoded()
        try ledger.writeDerived { w in
            if let kept = try w.get(Self.derivedKey), let through = Self.storedThrough(kept), through >= throughSeq {
                return
            }
            try w.put(Self.derivedKey, bytes)
        }
    }

    /// The last sequence number of a stored tally, read from its head alone.
    static func storedThrough(_ bytes: [UInt8]) -> UInt64? {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            guard (try? r.readByte()) == storedVersion else { return nil }
            return try? r.readVarint()
        }
    }

    /// The stored form: the version, the last sequence number taken in, then each device's
    /// string id, hours (each as the hour's distance from the one before, and its count),
    /// latest event and offset, device records and creations (time and seq each).
    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 1 << 16)
        w.write(Self.storedVersion)
        w.writeVarint(throughSeq)
        w.writeVarint(UInt64(deviceIndex.count))
        for (device, index) in deviceIndex.sorted(by: { $0.key < $1.key }) {
            var tally = tallies[index]
            tally.closeRun()
            w.writeVarint(UInt64(device))
            w.writeVarint(UInt64(tally.hours.count))
            var previous: Int64 = 0
            for (hour, count) in tally.hours.sorted(by: { $0.key < $1.key }) {
                w.writeSignedVarint(hour / Self.hourMicros - previous)
                previous = hour / Self.hourMicros
                w.writeVarint(UInt64(count))
            }
            w.writeSignedVarint(tally.latest.time)
            w.writeVarint(tally.latest.seq)
            w.writeSignedVarint(Int64(tally.latestOffset))
            for list in [tally.candidates, tally.creations] {
                w.writeVarint(UInt64(list.count))
                for (time, seq) in list {
                    w.writeSignedVarint(time)
                    w.writeVarint(seq)
                }
            }
        }
        return w.bytes
    }

    /// The tally in `bytes`; nil when they are not a stored tally of this layout.
    init?(stored bytes: UnsafeRawBufferPointer) {
        var r = ByteReader(bytes)
        do {
            guard try r.readByte() == Self.storedVersion else { return nil }
            self.init()
            let through = try r.readVarint()
            let devices = try r.readLength()
            for _ in 0..<devices {
                let device = UInt32(truncatingIfNeeded: try r.readVarint())
                var tally = DeviceTally()
                var hour: Int64 = 0
                for _ in 0..<(try r.readLength()) {
                    hour += try r.readSignedVarint()
                    tally.hours[hour * Self.hourMicros] = try r.readLength()
                }
                tally.latest = (try r.readSignedVarint(), try r.readVarint())
                tally.latestOffset = Int16(truncatingIfNeeded: try r.readSignedVarint())
                var lists: [[(time: Int64, seq: UInt64)]] = []
                for _ in 0..<2 {
                    var list = [(time: Int64, seq: UInt64)]()
                    for _ in 0..<(try r.readLength()) { list.append((try r.readSignedVarint(), try r.readVarint())) }
                    lists.append(list)
                }
                (tally.candidates, tally.creations) = (lists[0], lists[1])
                deviceIndex[device] = tallies.count
                tallies.append(tally)
            }
            guard r.isAtEnd else { return nil }
            throughSeq = through
        } catch {
            return nil
        }
    }
}

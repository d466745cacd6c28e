import LMDBKit
import RecordFormat

/// What a record's first bytes say: its event time, device and type, read without the rest
/// of its envelope or its payload.
package struct RecordStamp {
    package let seq: UInt64
    package let micros: Int64
    package let offsetMinutes: Int16
    /// The device's and the type's ids in the store's string table (the same in every
    /// transaction of the store: strings are only ever added).
    package let deviceID: UInt32
    package let typeID: UInt32
}

extension LedgerReader {
    /// Calls `body` with the stamp of every record with a sequence number in `range`, in
    /// order, until it returns false: a walk of the log much lighter than `scan`, for
    /// tallies of time, device and type. Each record's CRC is checked.
    /// - Throws: `LedgerError.damaged` for a record that fails its CRC or cannot be read.
    package func scanStamps(_ range: ClosedRange<UInt64>, _ body: (RecordStamp) throws -> Bool) throws {
        let c = try txn.cursor(dbs.log)
        var key = StoreKeys.seq(range.lowerBound)
        var entry = try withUnsafeBytes(of: &key) { try c.seek(atOrAfter: $0) }
        var passed = MapSpan()
        while let e = entry {
            guard let seq = StoreKeys.seqFrom(e.key), seq <= range.upperBound else { break }
            guard RecordCodec.isIntact(e.value, seq: seq) else {
                throw LedgerError(.damaged, "record \(seq) fails its checksum; run `stackledger verify`")
            }
            guard let stamp = stamp(seq: seq, bytes: e.value) else {
                throw LedgerError(.damaged, "record \(seq) cannot be decoded; run `stackledger verify`")
            }
            guard try body(stamp) else { return }
            passed.include(e.value)
            txn.releasePages(&passed, atLeast: LedgerReader.releaseStride)
            entry = try c.next()
        }
    }

    private func stamp(seq: UInt64, bytes: UnsafeRawBufferPointer) -> RecordStamp? {
        var r = ByteReader(bytes, offset: 2)
        guard bytes.count > 2, bytes[0] == RecordCodec.version,
            let micros = try? r.readFixed(Int64.self), let offset = try? r.readFixed(Int16.self),
            let deviceID = try? r.readVarint(), let typeID = try? r.readVarint()
        else { return nil }
        // The reader's strings are those committed when its transaction began: all its records name.
        guard strings.string(deviceID) != nil, strings.string(typeID) != nil else { return nil }
        return RecordStamp(
            seq: seq, micros: micros, offsetMinutes: offset, deviceID: UInt32(truncatingIfNeeded: deviceID),
            typeID: UInt32(truncatingIfNeeded: typeID))
    }

    /// The string the store's table holds under `id`, if any.
    package func string(id: UInt32) -> String? { strings.string(UInt64(id)) }

    /// The id of `string` in the store's table, if it is there.
    package func stringID(of string: String) -> UInt32? { strings.id(of: string) }
}

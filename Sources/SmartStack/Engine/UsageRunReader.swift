/// Reads the records of a run of one hour (`UsageRecord.write`) in the state's storage,
/// field by field through a pointer, as long as they carry no donation identifier or
/// group identifier: those are strings of the section's own table, which `StateReader`
/// reads. Most records carry neither.
struct UsageRunReader {
    /// How many records were appended, the next record's base, and where reading stopped:
    /// at the first record with a tag, or after the last record asked for.
    struct Progress {
        var read: Int
        var previous: (time: Int64, seq: UInt64)
        var offset: Int
    }

    /// Appends up to `count` records from `offset` of `bytes` to `bucket`; nil when the
    /// bytes end within a record, or a record names no entry of `table`.
    static func appendUntagged(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, count: Int, after previous: (time: Int64, seq: UInt64),
        hour: Int, table: [UsageSignature], to bucket: inout [UsageRecord]
    ) -> Progress? {
        var progress = Progress(read: 0, previous: previous, offset: offset)
        var at = offset
        while progress.read < count {
            guard let timeDelta = varint(bytes, &at), let seqDelta = varint(bytes, &at),
                let entry = varint(bytes, &at), entry < UInt64(table.count), at + 3 <= bytes.count
            else { return nil }
            // A tag: left to `StateReader`, from the record's start.
            guard bytes[at] == 0, bytes[at + 1] == 0 else { return progress }
            at += 2
            var deletedBy: UInt64?
            if bytes[at] == 0 {
                at += 1
            } else {
                at += 1
                guard let seq = varint(bytes, &at) else { return nil }
                deletedBy = seq
            }
            let time = progress.previous.time &+ zigzag(timeDelta)
            let seq = progress.previous.seq &+ UInt64(bitPattern: zigzag(seqDelta))
            bucket.append(
                UsageRecord(
                    time: time, hour: hour, seq: seq, signature: table[Int(entry)], donationId: nil,
                    groupIdentifier: nil, deletedBy: deletedBy))
            progress.previous = (time, seq)
            progress.read += 1
            progress.offset = at
        }
        return progress
    }

    @inline(__always) private static func zigzag(_ u: UInt64) -> Int64 {
        Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// The varint at `at`, which moves past it; nil when the bytes end first or it runs
    /// past ten bytes.
    @inline(__always) private static func varint(_ b: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> UInt64? {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while at < b.count, shift < 64 {
            let byte = b[at]
            at += 1
            v |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return v }
            shift += 7
        }
        return nil
    }
}

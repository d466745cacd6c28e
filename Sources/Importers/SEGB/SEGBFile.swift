/// An SEGB container (Biome's on-disk stream format), version 1 or 2, read from bytes.
///
/// Layouts are those of docs/forensic-sources.md §2. A file whose header or trailer cannot
/// be read throws; inside a readable file, a record that fails its CRC is kept with
/// `crcValid == false` for the caller to report.
public struct SEGBFile: Sendable {
    /// The container version.
    public enum Version: Int, Sendable {
        case v1 = 1
        case v2 = 2
    }

    /// The container version.
    public var version: Version
    /// The file's creation time (Cocoa seconds), from the v2 header or the v1 file name field.
    public var createdCocoaTime: Double?
    /// Every record slot, in file order.
    public var records: [SEGBRecord]
    /// Trailer entries (v2) that point nowhere and were passed over, with the reason.
    public var ignoredEntries: [(index: Int, reason: String)] = []

    /// The most trailer entries (v2) a file may declare.
    public static let maximumEntries = 1 << 22

    /// Reads a container.
    /// - Throws: `SEGBError` naming the offset when the magic, header or trailer is bad.
    public init(bytes: [UInt8]) throws(SEGBError) {
        guard bytes.count >= 32 else {
            throw SEGBError(
                offset: 0,
                message: "the file is \(bytes.count) bytes, shorter than any SEGB header; it is truncated or not SEGB")
        }
        if bytes[0..<4].elementsEqual("SEGB".utf8) {
            self = try Self.readV2(bytes)
        } else if bytes.count >= 56, bytes[52..<56].elementsEqual("SEGB".utf8) {
            self = try Self.readV1(bytes)
        } else {
            throw SEGBError(
                offset: 0, message: "no SEGB magic at byte 0 (v2) or byte 52 (v1); this is not a Biome SEGB file")
        }
    }

    private init(version: Version, created: Double?, records: [SEGBRecord]) {
        self.version = version
        self.createdCocoaTime = created
        self.records = records
    }

    static func int32(_ b: [UInt8], _ at: Int) -> Int32 {
        Int32(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)
    }

    static func double(_ b: [UInt8], _ at: Int) -> Double {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(b[at + k]) << (8 * UInt64(k)) }
        return Double(bitPattern: v)
    }

    static func checkCRC(_ b: [UInt8], _ payload: Range<Int>, stored: UInt32) -> Bool {
        CRC32.checksum(b[payload]) == stored
    }

    private static func readV1(_ b: [UInt8]) throws(SEGBError) -> SEGBFile {
        let end = Int(UInt32(bitPattern: int32(b, 0)))
        guard end >= 56, end <= b.count else {
            throw SEGBError(
                offset: 0,
                message:
                    "SEGB v1 header says the data ends at byte \(end), but the file has \(b.count) bytes; the file is truncated"
            )
        }
        let nameBytes = b[20..<52].prefix { $0 != 0 }
        let created =
            String(decoding: nameBytes, as: UTF8.self).allSatisfy(\.isNumber) && !nameBytes.isEmpty
            ? Double(String(decoding: nameBytes, as: UTF8.self)).map { $0 / 1e6 } : nil
        var records = [SEGBRecord]()
        var pos = 56
        while pos < end {
            guard end - pos >= 32 else {
                throw SEGBError(
                    offset: pos,
                    message:
                        "SEGB v1 record header at byte \(pos) runs past the end of data (byte \(end)); the file is truncated"
                )
            }
            let length = Int(int32(b, pos))
            let state = int32(b, pos + 4)
            guard length >= 0, length <= end - pos - 32 else {
                throw SEGBError(
                    offset: pos,
                    message:
                        "SEGB v1 record at byte \(pos) claims \(length) bytes of payload, past the end of data (byte \(end)); the file is truncated or corrupt"
                )
            }
            let payload = pos + 32..<pos + 32 + length
            let stored = UInt32(bitPattern: int32(b, pos + 24))
            let s = SEGBRecord.State(state)
            records.append(
                SEGBRecord(
                    offset: pos, payload: payload, state: s, cocoaTime: double(b, pos + 8), storedCRC: stored,
                    crcValid: s == .written ? checkCRC(b, payload, stored: stored) : nil))
            pos = (payload.upperBound + 7) & ~7
        }
        return SEGBFile(version: .v1, created: created, records: records)
    }

    private static func readV2(_ b: [UInt8]) throws(SEGBError) -> SEGBFile {
        let count = Int(int32(b, 4))
        guard count >= 0, count <= maximumEntries else {
            throw SEGBError(
                offset: 4,
                message:
                    "SEGB v2 header declares \(count) entries (the limit is \(maximumEntries)); the header is corrupt")
        }
        let trailerStart = b.count - 16 * count
        guard trailerStart >= 32 else {
            throw SEGBError(
                offset: 4,
                message:
                    "SEGB v2 header (byte 4) declares a trailer of \(count) entries, which does not fit in a \(b.count)-byte file; the file is truncated"
            )
        }
        struct Entry {
            var index: Int
            var end: Int
            var state: Int32
            var time: Double
        }
        var entries = [Entry]()
        var ignored = [(index: Int, reason: String)]()
        for i in 0..<count {
            let at = b.count - 16 * (i + 1)
            let e = Entry(index: i, end: 32 + Int(int32(b, at)), state: int32(b, at + 4), time: double(b, at + 8))
            guard [1, 3, 4].contains(e.state) else {
                // A zeroed slot (state 0, offset 0) is a known artefact; anything else
                // means the trailer is not where the header says: a truncated file.
                guard e.state == 0 && e.end == 32 else {
                    throw SEGBError(
                        offset: at,
                        message:
                            "SEGB v2 trailer entry \(i) at byte \(at) has state \(e.state) and end \(e.end - 32), which no record has; the trailer is corrupt or the file truncated"
                    )
                }
                ignored.append((i, "a zeroed trailer slot"))
                continue
            }
            guard e.end > 32, e.end <= trailerStart else {
                throw SEGBError(
                    offset: at,
                    message:
                        "SEGB v2 trailer entry \(i) ends its record at byte \(e.end), outside the data area (32..<\(trailerStart)); the file is truncated or corrupt"
                )
            }
            entries.append(e)
        }
        // Zeroed slots happen, but a trailer of nothing else is not where the header says:
        // bytes were appended after it, or the file was still being written.
        if count > 0 && entries.isEmpty {
            throw SEGBError(
                offset: b.count - 16 * count,
                message:
                    "SEGB v2 header declares \(count) entries, but the \(16 * count) bytes at the end of the file are all zero: the trailer is not at the end (bytes appended, or a file still being written)"
            )
        }
        entries.sort { ($0.end, $0.index) < ($1.end, $1.index) }
        var records = [SEGBRecord]()
        var start = 32
        var previous: SEGBRecord?
        var previousEnd = -1
        for e in entries {
            if e.end == previousEnd, var again = previous {
                // The same slot listed twice (written, then marked deleted): the later
                // entry describes the same bytes.
                again.state = SEGBRecord.State(e.state)
                again.cocoaTime = e.time
                again.crcValid = again.state == .written ? checkCRC(b, again.payload, stored: again.storedCRC) : nil
                records.append(again)
                continue
            }
            guard e.end - start >= 8 else {
                ignored.append((e.index, "points inside an earlier record (ends at byte \(e.end))"))
                continue
            }
            let stored = UInt32(bitPattern: int32(b, start))
            let payload = start + 8..<e.end
            let state = SEGBRecord.State(e.state)
            let record = SEGBRecord(
                offset: start, payload: payload, state: state, cocoaTime: e.time, storedCRC: stored,
                crcValid: state == .written ? checkCRC(b, payload, stored: stored) : nil)
            records.append(record)
            previous = record
            previousEnd = e.end
            start = (e.end + 3) & ~3
        }
        // Past the last record the trailer lists, the data area is unused (zeros). Bytes
        // there mean a record the trailer does not list: the trailer was read from the
        // wrong place (bytes appended after it) or the file changed as it was copied.
        if start < trailerStart, let stray = b[start..<trailerStart].firstIndex(where: { $0 != 0 }) {
            throw SEGBError(
                offset: stray,
                message:
                    "SEGB v2 data at byte \(stray) lies past the last record the trailer lists (which ends at byte \(start)): the trailer is not where the header's \(count) entries put it (bytes appended, or a file still being written)"
            )
        }
        var file = SEGBFile(version: .v2, created: double(b, 8), records: records)
        file.ignoredEntries = ignored
        return file
    }
}

/// An SEGB container that cannot be read.
public struct SEGBError: Error, Sendable, CustomStringConvertible {
    /// Byte offset of the fault.
    public var offset: Int
    /// What is wrong.
    public var message: String

    public var description: String { message }
}

/// The binary layout of one stored event, format version 1:
///
/// ```
/// u8  format version (1)
/// u8  flags: 1 app, 2 id, 4 source
/// i64 event time, microseconds since 1970 (little-endian)
/// i16 UTC offset in minutes
/// varint device string id, varint type string id
/// [varint app string id] [string id] [source: 5 optional strings behind a presence byte]
/// varint index key count, then that many (u8 namespace, varint string id) pairs
/// payload (the domain's bytes, to the end)
/// u32 CRC-32C over every byte above, then the record's sequence number (u64 LE)
/// ```
/// The sequence number is the record's key, not part of its bytes; folding it into the
/// CRC makes a record moved to another key fail its check. It comes last so that the
/// CRC of the bytes can be computed before the sequence number is known.
enum RecordCodec {
    static let version: UInt8 = 1
    static let flagApp: UInt8 = 1, flagID: UInt8 = 2, flagSource: UInt8 = 4

    /// Encodes everything but the CRC into `writer`.
    static func encode(
        _ event: some LedgerPayload, envelope env: Envelope, interner: Interner,
        into writer: inout ByteWriter, keys: inout [IndexKeyID]
    ) {
        var flags: UInt8 = 0
        if env.app != nil { flags |= flagApp }
        if env.id != nil { flags |= flagID }
        if env.source != nil { flags |= flagSource }
        writer.write(version)
        writer.write(flags)
        writer.writeFixed(env.time.microseconds)
        writer.writeFixed(env.time.offsetMinutes)
        writer.writeVarint(UInt64(interner.id(for: env.device)))
        writer.writeVarint(UInt64(interner.id(for: env.type)))
        if let app = env.app { writer.writeVarint(UInt64(interner.id(for: app))) }
        if let id = env.id { writer.writeString(id) }
        if let source = env.source {
            // Which of artifact, path, stream, locator and extra are present, bit by bit.
            var presence: UInt8 = source.artifact != nil ? 1 : 0
            if source.path != nil { presence |= 1 << 1 }
            if source.stream != nil { presence |= 1 << 2 }
            if source.locatorJSON != nil { presence |= 1 << 3 }
            if source.extraJSON != nil { presence |= 1 << 4 }
            writer.write(presence)
            if let a = source.artifact { writer.writeString(a) }
            if let p = source.path { writer.writeVarint(UInt64(interner.id(for: p))) }
            if let s = source.stream { writer.writeVarint(UInt64(interner.id(for: s))) }
            if let l = source.locatorJSON { writer.writeString(l) }
            if let x = source.extraJSON { writer.writeString(x) }
        }
        keys.removeAll(keepingCapacity: true)
        event.forEachIndexKey { key in
            let k = IndexKeyID(namespace: key.namespace, string: interner.id(for: key.value))
            if !keys.contains(k) { keys.append(k) }
        }
        writer.writeVarint(UInt64(keys.count))
        for k in keys {
            writer.write(k.namespace)
            writer.writeVarint(UInt64(k.string))
        }
        var payload = PayloadWriter(bytes: writer, interner: interner)
        writer = ByteWriter(capacity: 0)
        event.encodePayload(into: &payload)
        writer = payload.bytes
    }

    /// Appends the CRC of `seq` and the bytes written so far.
    static func seal(_ writer: inout ByteWriter, seq: UInt64) {
        let crc = checksum(seq: seq, body: writer.bytes)
        writer.writeFixed(crc)
    }

    static func checksum(seq: UInt64, body: [UInt8]) -> UInt32 {
        body.withUnsafeBytes { checksum(seq: seq, body: $0) }
    }

    static func checksum(seq: UInt64, body: UnsafeRawBufferPointer) -> UInt32 {
        finish(CRC32C.update(0, body), seq: seq)
    }

    /// Completes the CRC of a record's bytes with its sequence number.
    @inline(__always) static func finish(_ bodyCRC: UInt32, seq: UInt64) -> UInt32 {
        withUnsafeBytes(of: seq.littleEndian) { CRC32C.update(bodyCRC, $0) }
    }

    /// Whether the stored bytes of record `seq` pass their CRC.
    static func isIntact(_ bytes: UnsafeRawBufferPointer, seq: UInt64) -> Bool {
        guard bytes.count >= 5 else { return false }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 4])
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        return checksum(seq: seq, body: body) == stored
    }

    /// The decoded header of a record (`RecordHeader`).
    typealias Header = RecordHeader

    /// Decodes a record's envelope and locates its payload. Does not check the CRC. With
    /// `identities` false, the envelope's `id` and `source` are skipped, not decoded (nil).
    static func decodeHeader(
        _ bytes: UnsafeRawBufferPointer, strings: StringSnapshot,
        identities: Bool = true
    ) throws(ByteReader.Error) -> (Envelope, Header) {
        guard bytes.count >= 4 else { throw ByteReader.Error(offset: 0, expected: "a record") }
        return try decodeHeader(
            body: UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 4]), strings: strings, identities: identities
        )
    }

    /// Decodes the envelope of a record's bytes without their CRC (a prepared record).
    static func decodeHeader(
        body: UnsafeRawBufferPointer, strings: StringSnapshot, identities: Bool = true
    ) throws(ByteReader.Error) -> (Envelope, Header) {
        var r = ByteReader(body)
        let version = try r.readByte()
        guard version == RecordCodec.version else {
            throw ByteReader.Error(
                offset: 0, expected: "record format version \(RecordCodec.version) (found \(version))")
        }
        let flags = try r.readByte()
        let micros = try r.readFixed(Int64.self)
        let offset = try r.readFixed(Int16.self)
        guard Timestamp.isStorable(microseconds: micros, offsetMinutes: offset) else {
            throw ByteReader.Error(
                offset: r.offset - 10, expected: "an event time in 1970-2200 with an offset under 24 hours")
        }
        func str(_ r: inout ByteReader) throws(ByteReader.Error) -> String {
            let at = r.offset
            let id = try r.readVarint()
            guard let s = strings.string(id) else {
                throw ByteReader.Error(offset: at, expected: "a defined string id (got \(id))")
            }
            return s
        }
        let device = try str(&r)
        let type = try str(&r)
        let app = flags & flagApp != 0 ? try str(&r) : nil
        var id: String?
        if flags & flagID != 0 {
            if identities { id = try r.readString() } else { _ = try r.readBytes(try r.readLength()) }
        }
        var source: Provenance?
        if flags & flagSource != 0 && !identities {
            let presence = try r.readByte()
            for bit in 0..<5 where presence & (1 << bit) != 0 {
                // The path and the stream are string ids; the rest are strings.
                if bit == 1 || bit == 2 { _ = try r.readVarint() } else { _ = try r.readBytes(try r.readLength()) }
            }
        } else if flags & flagSource != 0 {
            let presence = try r.readByte()
            var p = Provenance()
            if presence & 1 != 0 { p.artifact = try r.readString() }
            if presence & 2 != 0 { p.path = try str(&r) }
            if presence & 4 != 0 { p.stream = try str(&r) }
            if presence & 8 != 0 { p.locatorJSON = try r.readString() }
            if presence & 16 != 0 { p.extraJSON = try r.readString() }
            source = p
        }
        let keyCount = try r.readLength()
        let keysOffset = r.offset
        for _ in 0..<keyCount {
            _ = try r.readByte()
            let at = r.offset
            let k = try r.readVarint()
            guard k > 0, k < UInt64(strings.strings.count) else {
                throw ByteReader.Error(offset: at, expected: "a defined index key id")
            }
        }
        let envelope = Envelope(
            type: type, time: Timestamp(microseconds: micros, offsetMinutes: offset),
            device: device, app: app, id: id, source: source)
        return (
            envelope,
            Header(
                body: body, keysOffset: keysOffset, keyCount: keyCount,
                payload: UnsafeRawBufferPointer(rebasing: body[r.offset...]))
        )
    }

    /// The event time and device id of a record, read without decoding the rest.
    static func timeAndDevice(_ bytes: UnsafeRawBufferPointer) throws(ByteReader.Error) -> (Int64, UInt32) {
        var r = ByteReader(bytes, offset: 2)
        let micros = try r.readFixed(Int64.self)
        _ = try r.readFixed(Int16.self)
        let device = try r.readVarint()
        return (micros, UInt32(truncatingIfNeeded: device))
    }

    /// A record's bytes without its `source`: the flag cleared and the section cut out; nil
    /// when the record has no source or cannot be parsed. Two imports of one record
    /// through different paths differ only there (docs/events.md: duplicates of imported
    /// events are judged without `source`).
    static func withoutSource(_ record: UnsafeRawBufferPointer) -> [UInt8]? {
        var r = ByteReader(record)
        do {
            guard try r.readByte() == version else { return nil }
            let flags = try r.readByte()
            guard flags & flagSource != 0 else { return nil }
            _ = try r.readFixed(Int64.self)
            _ = try r.readFixed(Int16.self)
            _ = try r.readVarint()
            _ = try r.readVarint()
            if flags & flagApp != 0 { _ = try r.readVarint() }
            if flags & flagID != 0 { _ = try r.readString() }
            let start = r.offset
            let presence = try r.readByte()
            if presence & 1 != 0 { _ = try r.readString() }
            if presence & 2 != 0 { _ = try r.readVarint() }
            if presence & 4 != 0 { _ = try r.readVarint() }
            if presence & 8 != 0 { _ = try r.readString() }
            if presence & 16 != 0 { _ = try r.readString() }
            var out = [UInt8](record[0..<start])
            out[1] = flags & ~flagSource
            out += record[r.offset...]
            return out
        } catch {
            return nil
        }
    }
}

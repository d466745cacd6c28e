extension PreparedBatch {
    /// The batch as bytes, to spool it to a file between validation and commit.
    public func serialized() -> [UInt8] {
        var w = ByteWriter(capacity: bytes.count + records.count * 32 + idKeys.count + keys.count * 6 + 64)
        w.writeVarint(UInt64(base))
        w.writeVarint(UInt64(newStrings.count))
        for s in newStrings { w.writeString(s) }
        w.writeVarint(UInt64(bytes.count))
        w.write(contentsOf: bytes)
        w.writeVarint(UInt64(idKeys.count))
        w.write(contentsOf: idKeys)
        w.writeVarint(UInt64(keys.count))
        for k in keys {
            w.write(k.namespace)
            w.writeVarint(UInt64(k.string))
        }
        w.writeVarint(UInt64(records.count))
        for r in records {
            w.writeVarint(UInt64(r.start))
            w.writeVarint(UInt64(r.length))
            w.writeFixed(r.bodyCRC)
            w.writeVarint(UInt64(r.device))
            w.writeSignedVarint(r.micros)
            w.writeVarint(UInt64(r.idKey.lowerBound))
            w.writeVarint(UInt64(r.idKey.count))
            w.writeVarint(UInt64(r.keys.lowerBound))
            w.writeVarint(UInt64(r.keys.count))
            if let id = r.id {
                w.write(1)
                w.writeString(id)
            } else {
                w.write(0)
            }
        }
        return w.bytes
    }

    /// Reads a batch written by `serialized()`.
    public static func deserialized(
        _ raw: UnsafeRawBufferPointer, reencode: @escaping @Sendable (BatchWriter) throws -> AppendReceipt
    ) throws -> PreparedBatch {
        var r = ByteReader(raw)
        let base = try r.readLength()
        var strings = [String]()
        for _ in 0..<(try r.readLength()) { strings.append(try r.readString()) }
        var batch = PreparedBatch(base: base, newStrings: strings, epoch: PreparedBatch.bulkEpoch, reencode: reencode)
        batch.bytes = Array(try r.readBytes(try r.readLength()))
        batch.idKeys = Array(try r.readBytes(try r.readLength()))
        let keyCount = try r.readLength()
        batch.keys.reserveCapacity(keyCount)
        for _ in 0..<keyCount {
            let ns = try r.readByte()
            batch.keys.append(IndexKeyID(namespace: ns, string: UInt32(truncatingIfNeeded: try r.readVarint())))
        }
        let count = try r.readLength()
        batch.records.reserveCapacity(count)
        for _ in 0..<count {
            let start = try r.readLength()
            let length = try r.readLength()
            let crc = try r.readFixed(UInt32.self)
            let device = UInt32(truncatingIfNeeded: try r.readVarint())
            let micros = try r.readSignedVarint()
            let idStart = try r.readLength()
            let idCount = try r.readLength()
            let keyStart = try r.readLength()
            let keyN = try r.readLength()
            let id: String? = try r.readByte() == 1 ? try r.readString() : nil
            guard start + length <= batch.bytes.count, idStart + idCount <= batch.idKeys.count,
                keyStart + keyN <= batch.keys.count
            else {
                throw ByteReader.Error(offset: r.offset, expected: "a prepared record inside its batch")
            }
            batch.records.append(
                Record(
                    start: start, length: length, bodyCRC: crc, device: device, micros: micros,
                    idKey: idStart..<idStart + idCount, keys: keyStart..<keyStart + keyN, id: id))
        }
        return batch
    }
}

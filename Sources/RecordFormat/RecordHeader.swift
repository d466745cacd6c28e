/// The decoded header of a record; `payload` points into the stored bytes.
@usableFromInline package struct RecordHeader {
    /// The record's bytes without the CRC, and where its index keys start.
    package var body: UnsafeRawBufferPointer
    package var keysOffset: Int
    package var keyCount: Int
    @usableFromInline package var payload: UnsafeRawBufferPointer

    /// The index keys, decoded (the header only located them).
    package var indexKeyIDs: [IndexKeyID] {
        var r = ByteReader(body, offset: keysOffset)
        var keys = [IndexKeyID]()
        keys.reserveCapacity(keyCount)
        for _ in 0..<keyCount {
            guard let ns = try? r.readByte(), let id = try? r.readVarint() else { break }
            keys.append(IndexKeyID(namespace: ns, string: UInt32(truncatingIfNeeded: id)))
        }
        return keys
    }

    package init(body: UnsafeRawBufferPointer, keysOffset: Int, keyCount: Int, payload: UnsafeRawBufferPointer) {
        self.body = body
        self.keysOffset = keysOffset
        self.keyCount = keyCount
        self.payload = payload
    }
}

/// An index key as stored: the namespace and the interned value's id.
package struct IndexKeyID: Equatable {
    package var namespace: UInt8
    package var string: UInt32

    /// The key in `index.keys`: namespace, then the id big-endian (5 bytes).
    package var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8) {
        (namespace, UInt8(string >> 24), UInt8(string >> 16 & 0xFF), UInt8(string >> 8 & 0xFF), UInt8(string & 0xFF))
    }

    package init(namespace: UInt8, string: UInt32) {
        self.namespace = namespace
        self.string = string
    }

    package func withKey<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var b = bytes
        return try withUnsafeBytes(of: &b) { try body($0) }
    }
}

/// One stored record as seen during a read: valid only inside the callback that got it.
public struct RecordView {
    /// The record's sequence number.
    public let seq: UInt64
    /// When the store committed it, microseconds since 1970 (the batch's time).
    public let recordedMicros: Int64
    /// The envelope.
    public let envelope: Envelope
    @usableFromInline package let header: RecordHeader
    @usableFromInline package var payload: UnsafeRawBufferPointer { header.payload }
    package var indexKeyIDs: [IndexKeyID] { header.indexKeyIDs }
    @usableFromInline package let strings: [String]

    package init(seq: UInt64, recordedMicros: Int64, envelope: Envelope, header: RecordHeader, strings: [String]) {
        self.seq = seq
        self.recordedMicros = recordedMicros
        self.envelope = envelope
        self.header = header
        self.strings = strings
    }

    /// A reader over the domain payload.
    @inlinable public func payloadReader() -> PayloadReader {
        PayloadReader(bytes: ByteReader(payload), strings: strings)
    }

    /// The index keys the domain gave it.
    public var indexKeys: [IndexKey] {
        indexKeyIDs.map { IndexKey(namespace: $0.namespace, value: strings[Int($0.string)]) }
    }

    /// The recorded time as a UTC timestamp.
    public var recordedAt: Timestamp { Timestamp(microseconds: recordedMicros) }
}

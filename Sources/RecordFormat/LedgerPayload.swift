/// An opaque key the domain indexes events under: a namespace byte of the domain's
/// choosing (for example 1 for apps) and a value (the app's bundle id). Interned.
public struct IndexKey: Hashable, Sendable {
    /// The domain's namespace for the value.
    public var namespace: UInt8
    /// The value.
    public var value: String

    /// Creates a key.
    public init(namespace: UInt8, value: String) {
        self.namespace = namespace
        self.value = value
    }
}

/// An event the ledger can store: an envelope, the opaque index keys the domain wants,
/// and a payload the domain encodes.
public protocol LedgerPayload {
    /// The envelope fields.
    var envelope: Envelope { get }
    /// Calls `body` with every key under which the event is indexed besides
    /// (device, time); repeated keys are stored once.
    func forEachIndexKey(_ body: (IndexKey) -> Void)
    /// Writes the domain payload. Strings written with `writeInterned` share storage.
    func encodePayload(into writer: inout PayloadWriter)
}

/// What gives an interned string its id in the store being written.
package protocol StringInterning: AnyObject {
    /// The id of `string`, defining it if it is new.
    func id(for string: String) -> UInt32
}

/// Writes a payload, interning the strings the domain marks as vocabulary.
public struct PayloadWriter {
    /// The bytes written so far.
    public var bytes: ByteWriter
    let interner: any StringInterning

    package init(bytes: ByteWriter, interner: any StringInterning) {
        self.bytes = bytes
        self.interner = interner
    }

    /// Writes a string as a reference to the store's string table.
    @inlinable public mutating func writeInterned(_ string: String) {
        bytes.writeVarint(UInt64(internID(string)))
    }

    @usableFromInline func internID(_ string: String) -> UInt32 { interner.id(for: string) }
}

/// Reads a payload, resolving interned strings.
public struct PayloadReader {
    /// The underlying reader, for plain values.
    public var bytes: ByteReader
    let strings: [String]

    @usableFromInline package init(bytes: ByteReader, strings: [String]) {
        self.bytes = bytes
        self.strings = strings
    }

    /// Reads a string written with `writeInterned`.
    @inline(__always)
    public mutating func readInterned() throws(ByteReader.Error) -> String {
        let offset = bytes.offset
        let id = try bytes.readVarint()
        guard id > 0 && id < UInt64(strings.count) else {
            throw ByteReader.Error(offset: offset, expected: "a defined string id (got \(id))")
        }
        return strings[Int(id)]
    }
}

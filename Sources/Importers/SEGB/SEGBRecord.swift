/// One record slot of an SEGB file.
public struct SEGBRecord: Sendable {
    /// What the container says about the slot.
    public enum State: Sendable, Equatable {
        /// State 1: a live record.
        case written
        /// State 3: deleted; its payload is usually zero-filled.
        case deleted
        /// State 4 (v2): an empty slot.
        case empty
        /// Any other value.
        case unknown(Int32)

        init(_ raw: Int32) {
            switch raw {
            case 1: self = .written
            case 3: self = .deleted
            case 4: self = .empty
            default: self = .unknown(raw)
            }
        }
    }

    /// Absolute offset of the record's header in the file (its locator).
    public var offset: Int
    /// Absolute byte range of the payload.
    public var payload: Range<Int>
    /// The slot's state.
    public var state: State
    /// The record's time (Cocoa seconds since 2001-01-01 UTC): v1's first timestamp, v2's
    /// trailer timestamp.
    public var cocoaTime: Double
    /// The CRC-32 the record stores.
    public var storedCRC: UInt32
    /// For a written record, whether the payload's CRC-32 matches; nil for other states.
    public var crcValid: Bool?
}

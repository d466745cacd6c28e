/// Remembers the strings recently made from text (JSON, a database's columns), so that the
/// app ids, kinds and names that repeat from line to line or row to row are made
/// (allocated and validated) once, and are then one object that interning recognises.
///
/// A direct-mapped table keyed by a hash of the bytes; a collision just replaces the
/// entry. Only short, unescaped strings are cached.
public final class StringCache {
    private struct Entry {
        var hash: UInt64 = 0
        var bytes: [UInt8] = []
        var string: String = ""
    }

    private var entries: [Entry]
    private let mask: Int
    static let maximumLength = 48

    /// An empty cache of `capacity` entries (a power of two).
    public init(capacity: Int = 4096) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "the capacity is a power of two")
        entries = [Entry](repeating: Entry(), count: capacity)
        mask = capacity - 1
    }

    /// The string of `raw` (valid UTF-8 required), from the cache when it was seen; nil when
    /// `raw` is not valid UTF-8.
    public func string(_ raw: UnsafeRawBufferPointer) -> String? {
        guard raw.count <= StringCache.maximumLength else { return String(validatingUTF8Bytes: raw) }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
        for b in raw { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let slot = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
        return entries.withUnsafeMutableBufferPointer { table -> String? in
            if table[slot].hash == h, table[slot].bytes.count == raw.count,
                table[slot].bytes.withUnsafeBytes({ ObjectFields.equalBytes($0, raw) })
            {
                return table[slot].string
            }
            guard let s = String(validatingUTF8Bytes: raw) else { return nil }
            table[slot] = Entry(hash: h, bytes: Array(raw), string: s)
            return s
        }
    }
}

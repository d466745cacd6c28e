import RecordFormat

/// Writes engine state for checkpoints: compact, deterministic (maps in key order),
/// strings interned per checkpoint. A writer is used in place (`inout`): copies share
/// their output.
struct StateWriter {
    private let out: WriteBuffer
    private var strings = InternedStrings()

    init(capacity: Int = 32_768) { out = WriteBuffer(capacity: capacity) }

    /// What has been written.
    var bytes: [UInt8] { out.array }

    @inline(__always)
    mutating func varint(_ v: UInt64) {
        out.reserve(10)
        var v = v
        while v >= 0x80 {
            out.put(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.put(UInt8(v))
    }
    @inline(__always) mutating func int(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
    @inline(__always) mutating func int(_ v: Int) { int(Int64(v)) }
    @inline(__always) mutating func uint(_ v: UInt64) { varint(v) }
    @inline(__always) mutating func byte(_ v: UInt8) {
        out.reserve(1)
        out.put(v)
    }
    @inline(__always) mutating func bool(_ v: Bool) { byte(v ? 1 : 0) }
    mutating func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append($0) } }
    mutating func string(_ s: String) {
        if let i = strings.insert(s) {
            varint(UInt64(i + 1))
            return
        }
        varint(0)
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            out.append(UnsafeRawBufferPointer(utf8))
        }
    }
    mutating func optionalString(_ v: String?) {
        guard let v else {
            byte(0)
            return
        }
        byte(1)
        string(v)
    }
    mutating func optional<T>(_ v: T?, _ write: (inout StateWriter, T) -> Void) {
        guard let v else {
            byte(0)
            return
        }
        byte(1)
        write(&self, v)
    }
    mutating func array<T>(_ list: [T], _ write: (inout StateWriter, T) -> Void) {
        varint(UInt64(list.count))
        for x in list { write(&self, x) }
    }
    mutating func map<V>(_ m: [String: V], _ write: (inout StateWriter, V) -> Void) {
        varint(UInt64(m.count))
        if m.isEmpty { return }
        if m.count == 1, let (k, v) = m.first {
            string(k)
            write(&self, v)
            return
        }
        for (k, v) in m.sorted(by: { $0.key < $1.key }) {
            string(k)
            write(&self, v)
        }
    }
    mutating func time(_ t: Timestamp) {
        int(t.microseconds)
        int(Int64(t.offsetMinutes))
    }
    /// Writes a section that stands alone (`section(capacity:_:)` bytes): its length, then
    /// the bytes, whose strings are interned among themselves only. Returns where the
    /// bytes start.
    @discardableResult
    mutating func section(_ bytes: [UInt8]) -> Int {
        varint(UInt64(bytes.count))
        let at = out.count
        bytes.withUnsafeBytes { out.append($0) }
        return at
    }
    /// The bytes of a section that `write` writes with strings of its own, for
    /// `section(_:)`: the same content gives the same bytes in any state.
    static func section(capacity: Int, _ write: (inout StateWriter) -> Void) -> [UInt8] {
        var w = StateWriter(capacity: capacity)
        write(&w)
        return w.bytes
    }
}

/// Growable bytes written through a pointer: a byte costs a bounds check and a store,
/// with no check of the storage's uniqueness as an array's append makes.
final class WriteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `n` more bytes.
    @inline(__always)
    func reserve(_ n: Int) {
        if count + n > capacity { grow(to: count + n) }
    }

    /// Stores a byte; room for it must have been reserved.
    @inline(__always)
    func put(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress {
            (base + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        count += bytes.count
    }

    private func grow(to needed: Int) {
        let bigger = max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        moved.update(from: base, count: count)
        base.deallocate()
        (base, capacity) = (moved, bigger)
    }

    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

/// The strings a writer has written, by first appearance: an open-addressing table on
/// the ledger's `StringHash`, cheaper than `Hasher` for these short keys (equal hashes
/// are told apart by comparing the strings). A state
/// passes the same string values many times (an app's name in each of its records), so
/// a second table remembers each value's representation (its two words: the storage's
/// address and count, or a small string's bytes): the same representation is the same
/// string, found without reading its bytes. Every value remembered that way is kept, so
/// that no other string can take its address while the writer lives. The first
/// `linearLimit` strings are looked for one by one, with no table made: most sections
/// (a usage signature's) hold a few.
struct InternedStrings {
    private var strings: [String] = []
    /// Indices into `strings` (+1; 0 is empty), and the hashes they sit under; empty
    /// while the strings are few.
    private var slots: [Int32] = []
    private var hashes: [UInt32] = []
    /// Representations seen, and the index (+1; 0 is empty) of the string each is.
    private var seen: [Representation] = []
    private var seenIndex: [Int32] = []
    private var seenCount = 0
    /// How many strings are looked for one by one before the tables are made.
    static let linearLimit = 8
    /// Values remembered in `seen` that are not in `strings` themselves.
    private var kept: [String] = []

    private struct Representation: Equatable {
        var a: UInt64, b: UInt64
        init(_ a: UInt64, _ b: UInt64) { (self.a, self.b) = (a, b) }

        init(_ s: String) {
            let words = unsafeBitCast(s, to: (UInt64, UInt64).self)
            (a, b) = (words.0, words.1)
        }

        /// Where the representation's search starts in a table of `mask + 1` slots.
        func slot(_ mask: Int) -> Int {
            Int(truncatingIfNeeded: ((a ^ (b &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 32) & mask
        }
    }

    /// The index of `s` if it was inserted before; else inserts it and returns nil.
    mutating func insert(_ s: String) -> Int? {
        let representation = Representation(s)
        if slots.isEmpty {
            // Each string held is alive in `strings`: the same representation is the same string.
            for (i, known) in strings.enumerated() where Representation(known) == representation || known == s {
                return i
            }
            strings.append(s)
            if strings.count > InternedStrings.linearLimit { makeTables() }
            return nil
        }
        let mask = seen.count - 1
        var i = representation.slot(mask)
        while seenIndex[i] != 0 {
            if seen[i] == representation { return Int(seenIndex[i]) - 1 }
            i = (i + 1) & mask
        }
        let found = insertByContent(s)
        let index = found ?? strings.count - 1
        if found != nil { kept.append(s) }
        seen[i] = representation
        seenIndex[i] = Int32(index + 1)
        seenCount += 1
        if seenCount * 2 > seen.count { growSeen() }
        return found
    }

    /// Makes the tables from the strings held so far.
    private mutating func makeTables() {
        slots = [Int32](repeating: 0, count: 64)
        hashes = [UInt32](repeating: 0, count: 64)
        seen = [Representation](repeating: Representation(0, 0), count: 128)
        seenIndex = [Int32](repeating: 0, count: 128)
        for (index, string) in strings.enumerated() {
            place(Int32(index + 1), hash: UInt32(truncatingIfNeeded: StringHash.of(string)))
            remember(Representation(string), Int32(index + 1))
        }
        seenCount = strings.count
    }

    private mutating func insertByContent(_ s: String) -> Int? {
        let hash = UInt32(truncatingIfNeeded: StringHash.of(s))
        let mask = slots.count - 1
        var i = Int(hash) & mask
        while slots[i] != 0 {
            if hashes[i] == hash && strings[Int(slots[i]) - 1] == s { return Int(slots[i]) - 1 }
            i = (i + 1) & mask
        }
        strings.append(s)
        slots[i] = Int32(strings.count)
        hashes[i] = hash
        if strings.count * 2 > slots.count { grow() }
        return nil
    }

    /// Puts `slot` (an index into `strings`, +1) under `hash`, in the first free slot.
    private mutating func place(_ slot: Int32, hash: UInt32) {
        let mask = slots.count - 1
        var i = Int(hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = slot
        hashes[i] = hash
    }

    /// Puts `representation`, naming `index` (+1), in the first free slot of `seen`.
    private mutating func remember(_ representation: Representation, _ index: Int32) {
        let mask = seen.count - 1
        var i = representation.slot(mask)
        while seenIndex[i] != 0 { i = (i + 1) & mask }
        seen[i] = representation
        seenIndex[i] = index
    }

    private mutating func grow() {
        let (oldSlots, oldHashes) = (slots, hashes)
        slots = [Int32](repeating: 0, count: oldSlots.count * 2)
        hashes = [UInt32](repeating: 0, count: oldSlots.count * 2)
        for (slot, hash) in zip(oldSlots, oldHashes) where slot != 0 { place(slot, hash: hash) }
    }

    private mutating func growSeen() {
        let (oldSeen, oldIndex) = (seen, seenIndex)
        seen = [Representation](repeating: Representation(0, 0), count: oldSeen.count * 2)
        seenIndex = [Int32](repeating: 0, count: oldSeen.count * 2)
        for (r, index) in zip(oldSeen, oldIndex) where index != 0 { remember(r, index) }
    }
}

/// Reads what `StateWriter` wrote.
struct StateReader {
    let bytes: [UInt8]
    var offset = 0
    private var strings: [String] = []
    /// Strings longer than fifteen bytes read so far, by `StringHash` of their bytes.
    private var pool: [UInt64: String] = [:]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "the checkpoint is malformed at byte \(offset)" }
    }

    /// A varint; one of a single byte, the most common, without a call.
    @inline(__always) mutating func varint() throws -> UInt64 {
        if offset < bytes.count, bytes[offset] < 0x80 {
            offset += 1
            return UInt64(bytes[offset - 1])
        }
        return try longVarint()
    }
    /// A varint of more than one byte (times and sequence numbers), read from the bytes'
    /// storage: seven bits a byte, with one bounds check for the whole varint when ten
    /// bytes remain.
    private mutating func longVarint() throws -> UInt64 {
        let start = offset
        let (value, end) = bytes.withUnsafeBufferPointer { b -> (UInt64?, Int) in
            var v: UInt64 = 0
            var i = start
            if start + 10 <= b.count {
                // The longest varint of 64 bits takes ten bytes.
                for shift in stride(from: UInt64(0), to: 70, by: 7) {
                    let byte = b[i]
                    i += 1
                    v |= UInt64(byte & 0x7F) << shift
                    if byte < 0x80 { return (v, i) }
                }
                return (nil, i)
            }
            var shift: UInt64 = 0
            while i < b.count, shift < 64 {
                let byte = b[i]
                i += 1
                v |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return (v, i) }
                shift += 7
            }
            return (nil, i)
        }
        offset = end
        guard let value else { throw Malformed(offset: end) }
        return value
    }
    @inline(__always) mutating func int() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }
    mutating func intValue() throws -> Int { Int(try int()) }
    /// A count or a length (a varint), checked against `limit` before it becomes an `Int`:
    /// damaged bytes can hold any number.
    mutating func length(atMost limit: Int) throws -> Int {
        let n = try varint()
        guard n <= UInt64(max(0, limit)) else { throw Malformed(offset: offset) }
        return Int(n)
    }
    /// The length of the bytes that follow it (a varint), checked against the bytes left
    /// after it.
    mutating func byteLength() throws -> Int {
        let n = try varint()
        guard n <= UInt64(bytes.count - offset) else { throw Malformed(offset: offset) }
        return Int(n)
    }
    mutating func uint() throws -> UInt64 { try varint() }
    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw Malformed(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func bool() throws -> Bool { try byte() != 0 }
    mutating func double() throws -> Double {
        guard offset + 8 <= bytes.count else { throw Malformed(offset: offset) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: v)
    }
    mutating func string() throws -> String {
        let tag = try varint()
        if tag > 0 {
            guard tag <= strings.count else { throw Malformed(offset: offset) }
            return strings[Int(tag - 1)]
        }
        let n = try byteLength()
        let read = n > 15 ? pooled(offset..<offset + n) : String(decoding: bytes[offset..<offset + n], as: UTF8.self)
        offset += n
        strings.append(read)
        return read
    }
    /// The string of `range`'s bytes, the same storage as an earlier one of the same
    /// bytes: each day's usage section writes its names again, and a string longer than
    /// fifteen bytes is stored on the heap.
    private mutating func pooled(_ range: Range<Int>) -> String {
        bytes.withUnsafeBytes { all in
            let utf8 = UnsafeRawBufferPointer(rebasing: all[range])
            let hash = StringHash.of(utf8)
            if let known = pool[hash],
                known.utf8.withContiguousStorageIfAvailable({
                    ObjectFields.equalBytes(UnsafeRawBufferPointer($0), utf8)
                })
                    == true
            {
                return known
            }
            if pool.isEmpty { pool.reserveCapacity(64) }
            let made = String(decoding: utf8, as: UTF8.self)
            pool[hash] = made
            return made
        }
    }
    /// What `StateWriter.optionalString` wrote.
    mutating func optionalString() throws -> String? {
        try byte() == 0 ? nil : try string()
    }
    mutating func optional<T>(_ read: (inout StateReader) throws -> T) throws -> T? {
        try byte() == 0 ? nil : try read(&self)
    }
    mutating func array<T>(_ read: (inout StateReader) throws -> T) throws -> [T] {
        let n = try length(atMost: bytes.count)
        var out = [T]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try read(&self)) }
        return out
    }
    mutating func map<V>(_ read: (inout StateReader) throws -> V) throws -> [String: V] {
        let n = try length(atMost: bytes.count)
        var out = [String: V](minimumCapacity: n)
        for _ in 0..<n {
            let k = try string()
            out[k] = try read(&self)
        }
        return out
    }
    mutating func time() throws -> Timestamp {
        Timestamp(microseconds: try int(), offsetMinutes: Int16(truncatingIfNeeded: try int()))
    }
    /// Reads a section that `StateWriter.section(_:)` wrote: `read` must consume exactly
    /// its bytes, and sees only the strings the section itself wrote.
    mutating func section<T>(_ read: (inout StateReader) throws -> T) throws -> T {
        try section(at: try skipSection(), read)
    }
    /// Passes over a section that `StateWriter.section(_:)` wrote, giving where its bytes
    /// are (for `section(at:_:)`).
    mutating func skipSection() throws -> Range<Int> {
        let n = try byteLength()
        offset += n
        return offset - n..<offset
    }
    /// Reads the section whose bytes are `range` (from `skipSection()`): `read` must
    /// consume exactly them, and sees only the strings the section itself wrote. Reading
    /// goes on after the section.
    mutating func section<T>(at range: Range<Int>, _ read: (inout StateReader) throws -> T) throws -> T {
        let outer = strings
        strings = []
        defer { strings = outer }
        offset = range.lowerBound
        let value = try read(&self)
        guard offset == range.upperBound else { throw Malformed(offset: offset) }
        return value
    }
}

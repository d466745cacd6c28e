/// Writes SEGB files (v1 or v2) from records, for generating Biome test artifacts; the
/// layout follows docs/forensic-sources.md §2, written independently of the reader.
public struct SEGBWriter: Sendable {
    /// One record to write.
    public struct Record: Sendable {
        /// 1 written, 3 deleted, 4 empty.
        public var state: Int32
        /// Cocoa seconds.
        public var time: Double
        public var payload: [UInt8]
        /// Store a wrong CRC (to test CRC checks).
        public var corruptCRC: Bool

        /// Creates a record.
        public init(state: Int32 = 1, time: Double, payload: [UInt8], corruptCRC: Bool = false) {
            self.state = state
            self.time = time
            self.payload = payload
            self.corruptCRC = corruptCRC
        }
    }

    /// 1 or 2.
    public var version: Int
    public var records: [Record] = []
    /// The file's creation time (Cocoa seconds).
    public var created: Double

    /// Creates a writer.
    public init(version: Int, created: Double) {
        self.version = version
        self.created = created
    }

    /// The file's bytes. v2 files are padded to `fileSize` when it is larger than needed.
    public func bytes(fileSize: Int = 0) -> [UInt8] {
        version == 1 ? v1() : v2(fileSize: fileSize)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    private static func le<T: FixedWidthInteger>(_ v: T, into out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }

    private func crc(_ r: Record) -> UInt32 {
        let c = r.state == 1 ? Self.crc32(r.payload) : 0
        return r.corruptCRC ? ~c : c
    }

    private func v1() -> [UInt8] {
        var body = [UInt8]()
        for r in records {
            var h = [UInt8]()
            Self.le(Int32(r.payload.count), into: &h)
            Self.le(r.state, into: &h)
            Self.le(r.time.bitPattern, into: &h)
            Self.le(r.time.bitPattern, into: &h)
            Self.le(crc(r), into: &h)
            Self.le(Int32(0), into: &h)
            body += h + r.payload
            while (56 + body.count) % 8 != 0 { body.append(0) }
        }
        var out = [UInt8]()
        Self.le(UInt32(56 + body.count), into: &out)
        Self.le(UInt32(0), into: &out)
        Self.le((records.last?.time ?? created).bitPattern, into: &out)
        Self.le(Int32(9), into: &out)
        var name = Array(String(Int64(created * 1e6)).utf8.prefix(31))
        name += [UInt8](repeating: 0, count: 32 - name.count)
        out += name + Array("SEGB".utf8) + body
        return out
    }

    private func v2(fileSize: Int) -> [UInt8] {
        var out = Array("SEGB".utf8)
        Self.le(Int32(records.count), into: &out)
        Self.le(created.bitPattern, into: &out)
        Self.le(Int32(10), into: &out)
        Self.le(Int32(-1), into: &out)
        Self.le(Int64(0), into: &out)
        var trailer = [UInt8]()
        for r in records {
            while out.count % 4 != 0 { out.append(0) }
            Self.le(crc(r), into: &out)
            Self.le(Int32(0), into: &out)
            out += r.state == 1 ? r.payload : [UInt8](repeating: 0, count: r.payload.count)
            var e = [UInt8]()
            Self.le(Int32(out.count - 32), into: &e)
            Self.le(r.state, into: &e)
            Self.le(r.time.bitPattern, into: &e)
            trailer = e + trailer
        }
        let needed = out.count + trailer.count
        if fileSize > needed { out += [UInt8](repeating: 0, count: fileSize - needed) }
        return out + trailer
    }
}

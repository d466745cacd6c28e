/// Reads a tar archive (POSIX ustar with PAX extended headers, GNU long names), plain or
/// gzip-compressed, member by member from the start: nothing is unpacked to disk.
struct TarArchive {
    let path: String
    let gzip: Bool

    /// Calls `body` with each member and a reader of its bytes; what `body` leaves unread
    /// is skipped.
    func forEachMember(_ body: (ExtractionMember, MemberBytes) throws -> Void) throws {
        let stream = try ArchiveStream(path: path, gzip: gzip)
        var header = [UInt8](repeating: 0, count: 512)
        var pax = [String: String]()
        var longName: String?
        var longLink: String?
        var offset: Int64 = 0
        while true {
            guard try readExactly(stream, into: &header, count: 512) else {
                throw ImportError(path: path, message: "ends without the two empty blocks that close a tar archive")
            }
            offset += 512
            if header.allSatisfy({ $0 == 0 }) {
                if gzip { try drain(stream) }
                return
            }
            guard Self.checksumHolds(header) else {
                throw ImportError(
                    path: path,
                    message:
                        "has a damaged tar header at byte \(offset - 512) (its checksum does not hold); it is not a tar archive, or it is corrupt"
                )
            }
            let type = header[156]
            let headerName = pax["path"] ?? longName ?? Self.cString(header[0..<100])
            var size = try Self.number(header[124..<136], path: path)
            if let paxSize = pax["size"] {
                guard let s = Int64(paxSize) else {
                    throw ImportError(
                        path: path, message: "member \(headerName): tar size \"\(paxSize.prefix(40))\" is not a number",
                        isMalformed: true)
                }
                size = s
            }
            guard size >= 0, size <= Self.maximumSize else {
                throw ImportError(
                    path: path,
                    message:
                        "member \(headerName) at byte \(offset - 512): tar size out of range (\(size) bytes; a member may hold up to \(Self.maximumSize >> 40) TiB)",
                    isMalformed: true)
            }
            switch type {
            case UInt8(ascii: "x"), UInt8(ascii: "g"), UInt8(ascii: "L"), UInt8(ascii: "K"):
                guard size <= 1 << 20 else {
                    throw ImportError(
                        path: path, message: "has an extended header of \(size) bytes; the limit is 1 MiB")
                }
                var data = [UInt8](repeating: 0, count: Int(size))
                guard try readExactly(stream, into: &data, count: Int(size)) else {
                    throw ImportError(path: path, message: "is cut short inside an extended header")
                }
                try skip(stream, Self.padding(size))
                offset += size + Self.padding(size)
                if type == UInt8(ascii: "x") {
                    for (k, v) in Self.paxRecords(data) { pax[k] = v }
                } else if type == UInt8(ascii: "L") {
                    longName = Self.cString(data[...])
                } else if type == UInt8(ascii: "K") {
                    longLink = Self.cString(data[...])
                }
                continue
            default: break
            }
            let prefix = Self.cString(header[345..<500])
            let name = Self.cString(header[0..<100])
            let stored = pax["path"] ?? longName ?? (prefix.isEmpty ? name : prefix + "/" + name)
            let linkTarget = pax["linkpath"] ?? longLink ?? Self.cString(header[157..<257])
            var modified: Int64?
            if let text = pax["mtime"] {
                guard let m = Double(text), m.isFinite, abs(m) <= Double(Self.maximumSeconds) else {
                    throw ImportError(
                        path: path,
                        message: "member \(stored): tar mtime out of range (PAX mtime \"\(text.prefix(40))\")",
                        isMalformed: true)
                }
                modified = Int64((m * 1_000_000).rounded(.down))
            } else if let m = try? Self.number(header[136..<148], path: path) {
                guard abs(m) <= Self.maximumSeconds else {
                    throw ImportError(
                        path: path, message: "member \(stored): tar mtime out of range (\(m) s)", isMalformed: true)
                }
                modified = m * 1_000_000
            }
            let kind: ExtractionMember.Kind
            switch type {
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"): kind = .file
            case UInt8(ascii: "5"): kind = .directory
            case UInt8(ascii: "2"): kind = .link(linkTarget)
            case UInt8(ascii: "1"): kind = .other("a hard link to \(linkTarget)")
            case UInt8(ascii: "3"), UInt8(ascii: "4"): kind = .other("a device")
            case UInt8(ascii: "6"): kind = .other("a FIFO")
            default: kind = .other("a tar entry of type \(Character(UnicodeScalar(type)))")
            }
            pax = [:]
            longName = nil
            longLink = nil
            let member = ExtractionMember(
                path: ExtractionMember.tidy(stored), kind: kind, size: kind == .file ? size : 0, modified: modified)
            var remaining = size
            let startConsumed = stream.consumed
            let startProduced = stream.produced
            let reader = MemberBytes { [path] (buffer) throws(ImportError) -> Int in
                guard remaining > 0 else { return 0 }
                let n = try stream.read(
                    UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(Int64(buffer.count), remaining))]))
                guard n > 0 else { throw ImportError(path: path, message: "is cut short inside \(member.path)") }
                remaining -= Int64(n)
                let grown = stream.produced - startProduced
                // Judged once the member has run past the streaming floor, and at its end.
                let judged =
                    grown > ArchiveLimits.streamingFloor || (remaining == 0 && grown > ArchiveLimits.expansionFloor)
                if gzip && judged && grown > ArchiveLimits.expansion * max(1, stream.consumed - startConsumed) {
                    throw ImportError(
                        path: path,
                        message:
                            "member \(member.path) expands more than \(ArchiveLimits.expansion) times its compressed bytes; it is refused as a decompression bomb"
                    )
                }
                return n
            }
            try body(member, reader)
            try skip(stream, remaining + Self.padding(size))
            offset += size + Self.padding(size)
        }
    }

    /// Reads exactly `count` bytes; false when the stream ends first.
    private func readExactly(_ stream: ArchiveStream, into bytes: inout [UInt8], count: Int) throws -> Bool {
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes { b in
                try stream.read(UnsafeMutableRawBufferPointer(rebasing: b[filled..<count]))
            }
            if n == 0 { return false }
            filled += n
        }
        return true
    }

    /// Reads a compressed archive on to the end of its gzip stream, where its trailer's
    /// checksum and length are checked: the blocks after the archive's end (its padding)
    /// are part of the data they cover.
    private func drain(_ stream: ArchiveStream) throws {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var left = TarArchive.trailingLimit
        while true {
            let n = try scratch.withUnsafeMutableBytes { try stream.read($0) }
            if n == 0 { return }
            left -= n
            guard left >= 0 else {
                throw ImportError(
                    path: path,
                    message:
                        "has more than \(TarArchive.trailingLimit >> 20) MiB of data after the end of its tar archive; its gzip checksum was not checked"
                )
            }
        }
    }

    /// The most bytes read after the archive's end to reach its gzip trailer.
    static let trailingLimit = 64 << 20

    private func skip(_ stream: ArchiveStream, _ count: Int64) throws {
        var left = count
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while left > 0 {
            let want = Int(min(left, Int64(scratch.count)))
            guard try readExactly(stream, into: &scratch, count: want) else {
                throw ImportError(path: path, message: "is cut short: a member's data ends early")
            }
            left -= Int64(want)
        }
    }

    static func padding(_ size: Int64) -> Int64 { (512 - size % 512) % 512 }

    /// The largest member size read (1 TiB): past it, sizes and offsets could overflow.
    static let maximumSize: Int64 = 1 << 40
    /// The latest modification time read, in seconds (9999-12-31T23:59:59Z).
    static let maximumSeconds: Int64 = 253_402_300_799

    /// The header's checksum: the sum of its bytes with the checksum field taken as spaces.
    static func checksumHolds(_ header: [UInt8]) -> Bool {
        guard let stored = try? number(header[148..<156], path: "") else { return false }
        var sum: Int64 = 0
        for (i, b) in header.enumerated() { sum += Int64((148..<156).contains(i) ? 32 : b) }
        return sum == stored
    }

    /// An octal field, or a base-256 one (its first byte's top bit set).
    static func number(_ field: ArraySlice<UInt8>, path: String) throws(ImportError) -> Int64 {
        if let first = field.first, first & 0x80 != 0 {
            var v: Int64 = Int64(first & 0x3F)
            for b in field.dropFirst() {
                guard v < Int64.max >> 8 else { throw ImportError(path: path, message: "has a tar number too large") }
                v = v << 8 | Int64(b)
            }
            return first & 0x40 != 0 ? -v : v
        }
        var v: Int64 = 0
        var seen = false
        for b in field {
            if b == 0 || b == 32 {
                if seen { break } else { continue }
            }
            guard b >= 48 && b <= 55, v < Int64.max >> 3 else {
                throw ImportError(path: path, message: "has a tar header field that is not an octal number")
            }
            v = v * 8 + Int64(b - 48)
            seen = true
        }
        return v
    }

    static func cString(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// PAX records: `LENGTH KEY=VALUE\n`.
    static func paxRecords(_ data: [UInt8]) -> [(String, String)] {
        var out = [(String, String)]()
        var i = 0
        while i < data.count {
            // A record holds its length, a space, KEY=VALUE and a newline, within the data.
            guard let space = data[i...].firstIndex(of: 32),
                let length = Int(String(decoding: data[i..<space], as: UTF8.self)), length > 0,
                length <= data.count - i, space + 1 <= i + length - 1, data[i + length - 1] == 0x0A
            else { break }
            let record = data[(space + 1)..<(i + length - 1)]
            if let eq = record.firstIndex(of: UInt8(ascii: "=")) {
                out.append(
                    (
                        String(decoding: record[..<eq], as: UTF8.self),
                        String(decoding: record[(eq + 1)...], as: UTF8.self)
                    ))
            }
            i += length
        }
        return out
    }
}

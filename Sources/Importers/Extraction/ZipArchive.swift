import CSystemZlib
import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a zip archive (stored or deflated members, zip64, Unix modes and the extended
/// timestamp field) from its central directory, each member in place: nothing is unpacked
/// to disk.
struct ZipArchive {
    let path: String

    /// One central directory entry.
    private struct Entry {
        var member: ExtractionMember
        var method: UInt16
        var encrypted: Bool
        var localOffset: Int64
        /// The CRC-32 of the member's data, as the central directory gives it.
        var crc: UInt32
        /// The member's name as the central directory stores it, byte for byte.
        var rawName: [UInt8]
    }

    /// The most entries a central directory may declare.
    static let maximumEntries: Int64 = 1 << 22

    /// Calls `body` with each member, in the central directory's order, and a reader of its bytes.
    func forEachMember(_ body: (ExtractionMember, MemberBytes) throws -> Void) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ImportError(path: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImportError(path: path, message: "cannot be examined") }
        let fileSize = Int64(st.st_size)
        for var entry in try centralDirectory(fd, fileSize: fileSize) {
            if case .link = entry.member.kind {
                let target = try bytes(of: entry, fd: fd, limit: 4096)
                entry.member.kind = .link(String(decoding: target, as: UTF8.self))
            }
            guard entry.member.kind == .file else {
                try body(entry.member, MemberBytes { _ in 0 })
                continue
            }
            if entry.encrypted {
                try body(
                    entry.member,
                    MemberBytes { [path] _ throws(ImportError) in
                        throw ImportError(path: path, message: "member \(entry.member.path) is encrypted")
                    })
                continue
            }
            // A member whose local header does not hold fails alone, when it is read.
            let bytes: MemberBytes
            do {
                bytes = try reader(for: entry, fd: fd, fileSize: fileSize)
            } catch {
                bytes = MemberBytes { _ throws(ImportError) in throw error }
            }
            try body(entry.member, bytes)
        }
    }

    private func bytes(of entry: Entry, fd: Int32, limit: Int) throws -> [UInt8] {
        var e = entry
        e.member.kind = .file
        return try reader(for: e, fd: fd, fileSize: Int64.max).readAll(limit: limit, path: path)
    }

    /// A reader of a member's data: stored bytes as they are, deflated ones inflated.
    private func reader(for entry: Entry, fd: Int32, fileSize: Int64) throws(ImportError) -> MemberBytes {
        var local = [UInt8](repeating: 0, count: 30)
        guard pread(fd, &local, 30, off_t(entry.localOffset)) == 30, Self.u32(local, 0) == 0x0403_4b50 else {
            throw ImportError(
                path: path, message: "member \(entry.member.path) has no local header where the directory says")
        }
        // The local header must name the member the directory names.
        let localNameLength = Int(Self.u16(local, 26))
        var localName = [UInt8](repeating: 0, count: localNameLength)
        guard localNameLength == entry.rawName.count,
            pread(fd, &localName, localNameLength, off_t(entry.localOffset + 30)) == localNameLength,
            localName == entry.rawName
        else {
            throw ImportError(
                path: path,
                message:
                    "member \(entry.member.path): its local header names \"\(String(decoding: localName, as: UTF8.self).prefix(200))\", not the name the central directory gives; nothing from it was read"
            )
        }
        let dataStart = entry.localOffset + 30 + Int64(localNameLength) + Int64(Self.u16(local, 28))
        let compressed = entry.member.compressedSize ?? 0
        guard compressed <= fileSize - min(fileSize, dataStart) else {
            throw ImportError(path: path, message: "member \(entry.member.path) runs past the end of the archive")
        }
        let expectedCRC = entry.crc
        var crc: UInt = 0
        // At the member's end, its bytes must hold the CRC-32 the directory gives.
        let checkCRC = { [path] (name: String) throws(ImportError) in
            guard UInt32(truncatingIfNeeded: crc) == expectedCRC else {
                throw ImportError(
                    path: path,
                    message:
                        "member \(name) fails its CRC-32 check (the directory gives \(String(expectedCRC, radix: 16)), its bytes \(String(UInt32(truncatingIfNeeded: crc), radix: 16))); it is altered or damaged, and nothing from it was read"
                )
            }
        }
        var position = dataStart
        var remainingIn = compressed
        var producedTotal: Int64 = 0
        let path = self.path
        let name = entry.member.path
        let declared = entry.member.size
        switch entry.method {
        case 0:
            return MemberBytes { (buffer) throws(ImportError) -> Int in
                guard remainingIn > 0 else { return 0 }
                let want = Int(min(Int64(buffer.count), remainingIn))
                let n = pread(fd, buffer.baseAddress!, want, off_t(position))
                guard n > 0 else { throw ImportError(path: path, message: "is cut short inside \(name)") }
                position += Int64(n)
                remainingIn -= Int64(n)
                crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), UInt32(n))
                if remainingIn == 0 { try checkCRC(name) }
                return n
            }
        case 8:
            let inflater = RawInflater()
            guard inflater.ok else { throw ImportError(path: path, message: "cannot start inflating \(name)") }
            var input = [UInt8](repeating: 0, count: 1 << 16)
            var inputOffset = 0
            var inputCount = 0
            return MemberBytes { (buffer) throws(ImportError) -> Int in
                while true {
                    if inputOffset == inputCount && remainingIn > 0 {
                        let want = Int(min(Int64(input.count), remainingIn))
                        let n = pread(fd, &input, want, off_t(position))
                        guard n > 0 else { throw ImportError(path: path, message: "is cut short inside \(name)") }
                        position += Int64(n)
                        remainingIn -= Int64(n)
                        inputOffset = 0
                        inputCount = n
                    }
                    let (status, written, used) = inflater.inflate(
                        input: &input, offset: inputOffset, count: inputCount - inputOffset, into: buffer)
                    inputOffset += used
                    producedTotal += Int64(written)
                    guard producedTotal <= declared else {
                        throw ImportError(
                            path: path,
                            message: "member \(name) inflates past the \(declared) bytes its directory declares")
                    }
                    if written > 0 {
                        crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), UInt32(written))
                    }
                    if status == Z_STREAM_END {
                        guard producedTotal == declared else {
                            throw ImportError(
                                path: path,
                                message:
                                    "member \(name) inflates to \(producedTotal) bytes; its directory declares \(declared)"
                            )
                        }
                        try checkCRC(name)
                    }
                    if status == Z_STREAM_END || written > 0 { return written }
                    if status != Z_OK && status != Z_BUF_ERROR {
                        throw ImportError(path: path, message: "member \(name) is not valid deflate data")
                    }
                    if inputOffset == inputCount && remainingIn == 0 {
                        throw ImportError(path: path, message: "member \(name) ends before its deflate stream does")
                    }
                }
            }
        default:
            throw ImportError(
                path: path,
                message: "member \(name) uses compression method \(entry.method); stored and deflate are read")
        }
    }

    /// The central directory's entries.
    private func centralDirectory(_ fd: Int32, fileSize: Int64) throws -> [Entry] {
        let tailSize = Int(min(fileSize, 65_557))
        var tail = [UInt8](repeating: 0, count: tailSize)
        guard pread(fd, &tail, tailSize, off_t(fileSize - Int64(tailSize))) == tailSize else {
            throw ImportError(path: path, message: "cannot be read")
        }
        guard
            let eocd = stride(from: tailSize - 22, through: 0, by: -1).first(where: {
                Self.u32(tail, $0) == 0x0605_4b50
            })
        else {
            throw ImportError(
                path: path,
                message: "has no end of central directory record; it is not a zip archive, or it is truncated")
        }
        var count = Int64(Self.u16(tail, eocd + 10))
        var size = Int64(Self.u32(tail, eocd + 12))
        var offset = Int64(Self.u32(tail, eocd + 16))
        let locator = eocd - 20
        if locator >= 0 && Self.u32(tail, locator) == 0x0706_4b50 {
            let at = try field(Self.u64(tail, locator + 8), "zip64 locator offset", within: fileSize)
            var z64 = [UInt8](repeating: 0, count: 56)
            guard pread(fd, &z64, 56, off_t(at)) == 56, Self.u32(z64, 0) == 0x0606_4b50 else {
                throw ImportError(path: path, message: "has a zip64 locator that points at no zip64 directory record")
            }
            count = try field(Self.u64(z64, 32), "zip64 entry count", within: Self.maximumEntries)
            size = try field(Self.u64(z64, 40), "zip64 directory size", within: fileSize)
            offset = try field(Self.u64(z64, 48), "zip64 directory offset", within: fileSize)
        }
        guard offset >= 0, size >= 0, size <= fileSize - offset, size <= 1 << 30 else {
            throw ImportError(path: path, message: "has a central directory outside the file")
        }
        var dir = [UInt8](repeating: 0, count: Int(size))
        guard pread(fd, &dir, Int(size), off_t(offset)) == Int(size) else {
            throw ImportError(path: path, message: "cannot read its central directory")
        }
        var entries = [Entry]()
        var i = 0
        for _ in 0..<count {
            guard i + 46 <= dir.count, Self.u32(dir, i) == 0x0201_4b50 else {
                throw ImportError(path: path, message: "has a damaged central directory at entry \(entries.count)")
            }
            let madeBy = Self.u16(dir, i + 4)
            let flags = Self.u16(dir, i + 8)
            let method = Self.u16(dir, i + 10)
            let dosTime = Self.u16(dir, i + 12)
            let dosDate = Self.u16(dir, i + 14)
            var compressed = Int64(Self.u32(dir, i + 20))
            var uncompressed = Int64(Self.u32(dir, i + 24))
            let nameLength = Int(Self.u16(dir, i + 28))
            let extraLength = Int(Self.u16(dir, i + 30))
            let commentLength = Int(Self.u16(dir, i + 32))
            let external = Self.u32(dir, i + 38)
            var local = Int64(Self.u32(dir, i + 42))
            let next = i + 46 + nameLength + extraLength + commentLength
            guard next <= dir.count else { throw ImportError(path: path, message: "has a damaged central directory") }
            let name = String(decoding: dir[(i + 46)..<(i + 46 + nameLength)], as: UTF8.self)
            var modified: Int64? = Self.dosTime(date: dosDate, time: dosTime)
            var e = i + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = Self.u16(dir, e)
                let length = Int(Self.u16(dir, e + 2))
                let body = e + 4
                guard body + length <= extraEnd else { break }
                if id == 0x0001 {
                    var f = body
                    if uncompressed == 0xFFFF_FFFF && f + 8 <= body + length {
                        uncompressed = try field(Self.u64(dir, f), "zip64 size of \(name)", within: Int64.max)
                        f += 8
                    }
                    if compressed == 0xFFFF_FFFF && f + 8 <= body + length {
                        compressed = try field(Self.u64(dir, f), "zip64 compressed size of \(name)", within: fileSize)
                        f += 8
                    }
                    if local == 0xFFFF_FFFF && f + 8 <= body + length {
                        local = try field(Self.u64(dir, f), "zip64 offset of \(name)", within: fileSize)
                    }
                } else if id == 0x5455, length >= 5, dir[body] & 1 != 0 {
                    modified = Int64(Int32(bitPattern: Self.u32(dir, body + 1))) * 1_000_000
                }
                e = body + length
            }
            let mode = madeBy >> 8 == 3 ? external >> 16 : 0
            let kind: ExtractionMember.Kind
            if mode & 0xF000 == 0xA000 {
                kind = .link("")
            } else if name.hasSuffix("/") || mode & 0xF000 == 0x4000 {
                kind = .directory
            } else if mode & 0xF000 != 0 && mode & 0xF000 != 0x8000 {
                kind = .other("a special file (mode \(String(mode, radix: 8)))")
            } else {
                kind = .file
            }
            let member = ExtractionMember(
                path: ExtractionMember.tidy(name), kind: kind, size: uncompressed, compressedSize: compressed,
                modified: modified)
            guard local < fileSize, compressed <= fileSize else {
                throw ImportError(
                    path: path, message: "member \(member.path): its offset or size lies outside the archive",
                    isMalformed: true)
            }
            entries.append(
                Entry(
                    member: member, method: method, encrypted: flags & 1 != 0, localOffset: local,
                    crc: Self.u32(dir, i + 16), rawName: Array(dir[(i + 46)..<(i + 46 + nameLength)])))
            i = next
        }
        try refuseOverlaps(entries)
        return entries
    }

    /// A value of 64 bits read where at most `limit` makes sense; an error naming the field
    /// past it (a hostile archive's 2^63 and more).
    private func field(_ value: UInt64, _ name: String, within limit: Int64) throws(ImportError) -> Int64 {
        guard let v = Int64(exactly: value), v <= limit else {
            throw ImportError(path: path, message: "has a \(name) out of range (\(value))", isMalformed: true)
        }
        return v
    }

    /// Entries whose data overlap (several directory entries pointing at one stream, a
    /// way to multiply a small archive's output) make the archive an error.
    private func refuseOverlaps(_ entries: [Entry]) throws(ImportError) {
        let spans = entries.filter { $0.member.kind == .file || $0.member.compressedSize ?? 0 > 0 }.map {
            (
                start: $0.localOffset,
                end: $0.localOffset + 30 + Int64($0.rawName.count) + ($0.member.compressedSize ?? 0),
                name: $0.member.path
            )
        }.sorted { $0.start < $1.start }
        for (a, b) in zip(spans, spans.dropFirst()) where b.start < a.end {
            throw ImportError(
                path: path,
                message:
                    "members \(a.name) and \(b.name) overlap in the archive (their data share bytes); it is refused, as such an archive multiplies its output",
                isMalformed: true)
        }
    }

    /// A DOS date and time, read as UTC (the zone is not recorded).
    static func dosTime(date: UInt16, time: UInt16) -> Int64? {
        var c = DateComponents()
        c.year = Int(date >> 9) + 1980
        c.month = Int((date >> 5) & 15)
        c.day = Int(date & 31)
        c.hour = Int(time >> 11)
        c.minute = Int((time >> 5) & 63)
        c.second = Int(time & 31) * 2
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let d = calendar.date(from: c) else { return nil }
        return Int64(d.timeIntervalSince1970) * 1_000_000
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// zlib's raw inflate (no header), as zip's deflate members need.
final class RawInflater {
    private var stream = z_stream()
    let ok: Bool

    init() {
        ok = inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    }

    deinit { if ok { inflateEnd(&stream) } }

    /// Inflates from `input[offset..<offset+count]` into `output`: the status, bytes
    /// written and input bytes used.
    func inflate(input: inout [UInt8], offset: Int, count: Int, into output: UnsafeMutableRawBufferPointer)
        -> (Int32, Int, Int)
    {
        input.withUnsafeMutableBytes { inBytes in
            stream.next_in = inBytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + offset
            stream.avail_in = UInt32(count)
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = UInt32(output.count)
            let status = CSystemZlib.inflate(&stream, Z_NO_FLUSH)
            return (status, output.count - Int(stream.avail_out), count - Int(stream.avail_in))
        }
    }
}

import Foundation
import StackLedgerTesting
import Testing

/// Archive headers shaped by an adversary (small inputs built here): each is an error naming
/// the member and the field, with exit 65, nothing stored from the member, and no private
/// folder left behind.
@Suite("Hostile archive headers")
struct HostileArchiveTests {
    /// Builds the archive `kind` at `path` with Python, from the cases below.
    static let builder = #"""
        import io, struct, sys, tarfile, zipfile, zlib
        kind, path = sys.argv[1], sys.argv[2]
        version = b'<?xml version="1.0"?><plist version="1.0"><dict><key>ProductName</key><string>iPhone OS</string><key>ProductVersion</key><string>16.6</string></dict></plist>'
        name = "System/Library/CoreServices/SystemVersion.plist"

        def tar_header(name, size_field, mtime_field):
            h = bytearray(512)
            h[0:len(name)] = name.encode()
            h[100:108] = b"0000644\0"
            h[108:116] = b"0000000\0"
            h[116:124] = b"0000000\0"
            h[124:136] = size_field
            h[136:148] = mtime_field
            h[148:156] = b"        "
            h[156:157] = b"0"
            h[257:263] = b"ustar\0"
            h[263:265] = b"00"
            h[148:156] = ("%06o\0 " % sum(h)).encode()
            return bytes(h)

        def base256(v):
            return bytes([0x80]) + v.to_bytes(11, "big")

        def pax(records):
            body = b""
            for k, v in records:
                line = (" %s=%s\n" % (k, v)).encode()
                n = len(line) + 1
                while len(str(n)) + len(line) != n: n += 1
                body += str(n).encode() + line
            h = tar_header("PaxHeader", ("%011o\0" % len(body)).encode(), b"00000000000\0")
            h = bytearray(h); h[156:157] = b"x"; h[148:156] = b"        "; h[148:156] = ("%06o\0 " % sum(h)).encode()
            return bytes(h) + body + b"\0" * ((512 - len(body) % 512) % 512)

        def plain(name, data, mtime=b"14000000000\0"):
            return tar_header(name, ("%011o\0" % len(data)).encode(), mtime) + data + b"\0" * ((512 - len(data) % 512) % 512)

        out = b""
        if kind == "tar-mtime-256":
            out = tar_header(name, ("%011o\0" % len(version)).encode(), base256(2**62)) + version + b"\0" * (512 - len(version))
        elif kind == "tar-size-256":
            out = tar_header(name, base256(2**63 - 2**20), b"14000000000\0")
        elif kind == "pax-mtime":
            out = pax([("mtime", "9999999999999")]) + plain(name, version)
        elif kind == "pax-size":
            out = pax([("size", str(2**63 - 5))]) + plain(name, version)
        if kind.startswith("tar") or kind.startswith("pax"):
            open(path, "wb").write(out + b"\0" * 1024)
            sys.exit(0)

        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(name, version)
        data = bytearray(buf.getvalue())
        cd = data.rfind(b"PK\x01\x02")
        eocd = data.rfind(b"PK\x05\x06")
        local_name_at = 30
        if kind == "zip-crc":
            # The stored data's CRC no longer holds: one byte of the deflated stream changed
            # to another valid stream is hard, so the directory's CRC is changed instead.
            struct.pack_into("<I", data, cd + 16, struct.unpack_from("<I", data, cd + 16)[0] ^ 1)
            struct.pack_into("<I", data, 14, struct.unpack_from("<I", data, 14)[0] ^ 1)
        elif kind == "zip-local-name":
            data[local_name_at] = ord("X")
        elif kind == "zip-overlap":
            entry = bytes(data[cd:eocd])
            extra = entry.replace(name.encode(), name.replace("SystemVersion", "SystemVersioo").encode())
            count = 2
            data = data[:cd] + entry + extra + data[eocd:]
            eocd = data.rfind(b"PK\x05\x06")
            struct.pack_into("<HHI", data, eocd + 8, count, count, len(entry) * 2)
        elif kind in ("zip64-count", "zip64-locator", "zip64-extra"):
            entry = bytearray(data[cd:eocd])
            if kind == "zip64-extra":
                # Sizes and offset all say "see zip64", and the zip64 field is all 0xFF.
                struct.pack_into("<II", entry, 20, 0xFFFFFFFF, 0xFFFFFFFF)
                struct.pack_into("<I", entry, 42, 0xFFFFFFFF)
                n = struct.unpack_from("<H", entry, 28)[0]
                extra = struct.pack("<HH", 1, 24) + b"\xff" * 24
                entry = entry[:46 + n] + extra + entry[46 + n:]
                struct.pack_into("<H", entry, 30, len(extra))
            head = bytes(data[:cd])
            cd_at = len(head)
            z64_at = cd_at + len(entry)
            count = 2**63 + 1 if kind == "zip64-count" else 1
            z64 = struct.pack("<IQHHIIQQQQ", 0x06064b50, 44, 45, 45, 0, 0, count, count, len(entry), cd_at)
            locator_at = 2**63 + 7 if kind == "zip64-locator" else z64_at
            locator = struct.pack("<IIQI", 0x07064b50, 0, locator_at, 1)
            end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
            data = bytearray(head + bytes(entry) + z64 + locator + end)
        open(path, "wb").write(bytes(data))
        """#

    static let cases: [(kind: String, suffix: String, message: String)] = [
        ("tar-mtime-256", "tar", "tar mtime out of range"),
        ("tar-size-256", "tar", "tar size out of range"),
        ("pax-mtime", "tar", "tar mtime out of range"),
        ("pax-size", "tar", "tar size out of range"),
        ("zip64-count", "zip", "zip64 entry count out of range"),
        ("zip64-locator", "zip", "zip64 locator offset out of range"),
        ("zip64-extra", "zip", "out of range"),
        ("zip-crc", "zip", "fails its CRC-32 check"),
        ("zip-local-name", "zip", "its local header names"),
        ("zip-overlap", "zip", "overlap in the archive"),
    ]

    @Test(
        "each hostile header is exit 65 naming the field; nothing of it is stored, no private folder is left",
        arguments: 0..<10)
    func hostile(_ k: Int) throws {
        let (kind, suffix, message) = Self.cases[k]
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let archive = dir.file("phone.\(suffix)")
        let built = try CLI.run(executable: "/usr/bin/python3", ["-c", Self.builder, kind, archive])
        try #require(built.status == 0, "\(built.stderr)")
        let temporary = dir.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let r = try CLI.run(
            ["import", "extraction", archive, "--device", "phone", "--store", dir.store],
            environment: ["TMPDIR": temporary])
        #expect(r.status == 65, "\(kind): \(r.status) \(r.stdout)\(r.stderr)")
        #expect((r.stdout + r.stderr).contains(message), "\(kind): \(r.stdout)\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "\(kind)")
        let log = try CLI.run(["log", "--store", dir.store, "--json"])
        #expect(!log.stdout.contains("16.6"), "\(kind): \(log.stdout)")
    }
}

/// Two members at one path: the same content is read once; different content refuses the path.
@Suite("Duplicate archive members")
struct DuplicateMemberTests {
    static let builder = #"""
        import sys, zipfile
        kind, path = sys.argv[1], sys.argv[2]
        def version(v):
            return ('<?xml version="1.0"?><plist version="1.0"><dict><key>ProductName</key><string>iPhone OS</string><key>ProductVersion</key><string>%s</string></dict></plist>' % v).encode()
        name = "System/Library/CoreServices/SystemVersion.plist"
        db = "private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db"
        import warnings; warnings.simplefilter("ignore")
        with zipfile.ZipFile(path, "w") as z:
            if kind == "same":
                z.writestr(name, version("15.1")); z.writestr(name, version("15.1"))
            elif kind == "different":
                z.writestr(name, version("15.1")); z.writestr(name, version("16.6"))
            else:
                z.writestr(db, b"first database bytes"); z.writestr(db, b"second database bytes")
        """#

    func run(_ kind: String) throws -> (WorkDirectory, CLI.Result) {
        let dir = WorkDirectory()
        let archive = dir.file("phone.zip")
        let built = try CLI.run(executable: "/usr/bin/python3", ["-c", Self.builder, kind, archive])
        try #require(built.status == 0, "\(built.stderr)")
        return (dir, try CLI.run(["import", "extraction", archive, "--device", "phone", "--store", dir.store]))
    }

    @Test("identical duplicates are read once")
    func same() throws {
        let (dir, r) = try run("same")
        defer { dir.cleanup() }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let log = try CLI.run(["log", "--store", dir.store, "--json"]).stdout
        #expect(log.split(separator: "\n").count == 1 && log.contains("15.1"), "\(log)")
    }

    @Test("different content at one path is refused with both hashes, for a plist and for a database")
    func different() throws {
        for kind in ["different", "databases"] {
            let (dir, r) = try run(kind)
            defer { dir.cleanup() }
            #expect(r.status == 65, "\(kind): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains("two members at this path with different content (sha256 "), "\(r.stderr)")
            #expect(!r.stderr.contains("File exists"))
            let log = try CLI.run(["log", "--store", dir.store, "--json"]).stdout
            #expect(!log.contains("16.6") && !log.contains("15.1"), "\(kind): \(log)")
        }
    }
}

extension HostileArchiveTests {
    @Test("members each under the per-member floor still count toward the archive's whole output")
    func manySmallBombs() throws {
        let dir = WorkDirectory()
        defer { dir.cleanup() }
        let archive = dir.file("phone.zip")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                for i in range(200):
                    z.writestr("private/var/mobile/Library/Biome/streams/restricted/App.InFocus/local/%d" % i, b"\\0" * (1 << 20))
            """
        let built = try CLI.run(executable: "/usr/bin/python3", ["-c", script, archive])
        try #require(built.status == 0, "\(built.stderr)")
        let r = try CLI.run(["import", "extraction", archive, "--device", "phone", "--store", dir.store])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(
            (r.stdout + r.stderr).contains("refused as part of a decompression bomb"),
            "\((r.stdout + r.stderr).suffix(600))")
    }
}

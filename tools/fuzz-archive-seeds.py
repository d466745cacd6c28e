"""Writes the seed inputs of the FuzzArchive target into DIR: small tar, PAX, GNU, gzip and
zip (stored, deflated, zip64, extended time) archives holding extraction paths, each behind
the selector byte the oracle reads (0 .zip, 1 .tar, 2 .tar.gz).
Usage: python3 tools/fuzz-archive-seeds.py DIR"""
import gzip, hashlib, io, os, sys, tarfile, time, zipfile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
files = {
    "System/Library/CoreServices/SystemVersion.plist": b'<?xml version="1.0"?><plist version="1.0"><dict><key>ProductName</key><string>iPhone OS</string><key>ProductVersion</key><string>16.6</string></dict></plist>',
    "private/var/mobile/Library/SpringBoard/IconState.plist": b"bplist00" + b"\0" * 40,
    "private/var/mobile/Library/CoreDuet/Knowledge/knowledgeC.db": b"SQLite format 3\0" + b"\0" * 84,
    "private/var/mobile/Library/Biome/streams/restricted/App.InFocus/local/1": b"SEGB" + b"\0" * 52,
}

def save(selector, data):
    blob = bytes([selector]) + data
    with open(os.path.join(out, hashlib.sha1(blob).hexdigest()), "wb") as f:
        f.write(blob)

def tar(fmt, extra=None, long_name=False):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for name, data in files.items():
            if long_name:
                name = "private/" + "d" * 120 + "/" + name
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1639656000.25 if fmt == tarfile.PAX_FORMAT else 1639656000
            if extra:
                info.pax_headers = dict(extra)
            t.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("var")
        link.type = tarfile.SYMTYPE
        link.linkname = "private/var"
        t.addfile(link)
    return buf.getvalue()

for fmt in (tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT):
    plain = tar(fmt)
    save(1, plain)
    save(2, gzip.compress(plain, mtime=0))
save(1, tar(tarfile.PAX_FORMAT, {"comment": "x" * 300}))
save(1, tar(tarfile.GNU_FORMAT, long_name=True))
save(2, gzip.compress(tar(tarfile.PAX_FORMAT, long_name=True), mtime=0))

def zipped(method, force64=False, ext_time=False, comment=b""):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=time.gmtime(1639656000)[:6])
            info.compress_type = method
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            if ext_time:
                import struct
                info.extra = struct.pack("<HHBi", 0x5455, 5, 1, 1639656000)
            with z.open(info, "w", force_zip64=force64) as f:
                f.write(data)
        z.comment = comment
    return buf.getvalue()

for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
    save(0, zipped(method))
    save(0, zipped(method, force64=True))
    save(0, zipped(method, ext_time=True, comment=b"an archive comment"))

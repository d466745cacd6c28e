import Foundation
import Importers

#if canImport(Glibc)
    import Glibc
#endif

/// The oracle of `FuzzArchive`, run by libFuzzer and by the tests on the kept corpus: the
/// input's first byte picks how the rest is named (a `.zip`, a `.tar`, a `.tar.gz`), and the
/// extraction archive readers walk it as an import would (tar and PAX headers, gzip, the zip
/// central directory, zip64 records, local headers, CRC-32s). Errors are expected; crashes
/// and hangs are not.
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let suffix = [".zip", ".tar", ".tar.gz"][Int(data[0]) % 3]
    let path = NSTemporaryDirectory() + "stackledger-fuzz-archive-\(getpid())" + suffix
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = write(fd, data + 1, size - 1)
    close(fd)
    defer { unlink(path) }
    _ = try? ArchiveWalk.walk(path: path)
    return 0
}

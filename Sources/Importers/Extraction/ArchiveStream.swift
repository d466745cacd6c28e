import CZlib
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// A file's bytes, read sequentially, through gzip's inflate when the file is compressed.
final class ArchiveStream {
    private let fd: Int32
    private let path: String
    private var zstream = z_stream()
    private let gzip: Bool
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var inputEnd = false
    private var finished = false
    /// Compressed bytes read from the file so far.
    private(set) var consumed: Int64 = 0
    /// Bytes handed out so far (after inflating).
    private(set) var produced: Int64 = 0

    init(path: String, gzip: Bool) throws(ImportError) {
        self.path = path
        self.gzip = gzip
        fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ImportError(path: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        if gzip {
            // 15 + 32: a gzip (or zlib) header, detected.
            guard inflateInit2_(&zstream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                close(fd)
                throw ImportError(path: path, message: "cannot start gzip decompression")
            }
        }
    }

    deinit {
        if gzip { inflateEnd(&zstream) }
        close(fd)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the stream.
    func read(_ buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard buffer.count > 0, !finished else { return 0 }
        guard gzip else {
            let n = SystemIO.read(fd, into: buffer.baseAddress!, count: buffer.count)
            guard n >= 0 else {
                throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            consumed += Int64(n)
            produced += Int64(n)
            if n == 0 { finished = true }
            return n
        }
        return try inflateChunk(buffer)
    }

    private var inputOffset = 0

    private func inflateChunk(_ buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        while true {
            if zstream.avail_in == 0 && !inputEnd {
                let n = input.withUnsafeMutableBytes { SystemIO.read(fd, into: $0.baseAddress!, count: $0.count) }
                guard n >= 0 else {
                    throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
                }
                if n == 0 { inputEnd = true }
                consumed += Int64(n)
                zstream.avail_in = UInt32(n)
                inputOffset = 0
            }
            let (status, written, used) = input.withUnsafeMutableBytes { inBytes -> (Int32, Int, Int) in
                zstream.next_in = inBytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + inputOffset
                zstream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                zstream.avail_out = UInt32(buffer.count)
                let before = zstream.avail_in
                let status = inflate(&zstream, Z_NO_FLUSH)
                return (status, buffer.count - Int(zstream.avail_out), Int(before - zstream.avail_in))
            }
            inputOffset += used
            produced += Int64(written)
            switch status {
            case Z_STREAM_END:
                finished = true
                return written
            case Z_OK, Z_BUF_ERROR:
                if written > 0 { return written }
                if inputEnd && zstream.avail_in == 0 {
                    throw ImportError(path: path, message: "is a gzip stream cut short; the archive is truncated")
                }
            default:
                throw ImportError(
                    path: path, message: "is not valid gzip data (inflate status \(status)) at byte \(consumed)")
            }
        }
    }
}

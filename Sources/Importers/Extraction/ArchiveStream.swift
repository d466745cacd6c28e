import CIsal
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// A file's bytes, read sequentially, through gzip's inflate (ISA-L's) when the file is
/// compressed. The gzip trailer's CRC-32 and length are checked at the end of the stream.
final class ArchiveStream {
    private let fd: Int32
    private let path: String
    /// ISA-L's inflate state (tens of kilobytes: kept off the stack); nil for a plain file.
    private let inflater: UnsafeMutablePointer<inflate_state>?
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 64)
    private var inputEnd = false
    private var finished = false
    /// Compressed bytes read from the file so far.
    private(set) var consumed: Int64 = 0
    /// Bytes handed out so far (after inflating).
    private(set) var produced: Int64 = 0

    init(path: String, gzip: Bool) throws(ImportError) {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            input.deallocate()
            throw ImportError(path: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        if gzip {
            let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
            isal_inflate_init(state)
            state.pointee.crc_flag = UInt32(ISAL_GZIP)
            inflater = state
        } else {
            inflater = nil
        }
    }

    deinit {
        inflater?.deallocate()
        input.deallocate()
        close(fd)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the stream.
    func read(_ buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard buffer.count > 0, !finished else { return 0 }
        guard let inflater else {
            let n = SystemIO.read(fd, into: buffer.baseAddress!, count: buffer.count)
            guard n >= 0 else {
                throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
            }
            consumed += Int64(n)
            produced += Int64(n)
            if n == 0 { finished = true }
            return n
        }
        return try inflateChunk(buffer, inflater)
    }

    private func inflateChunk(
        _ buffer: UnsafeMutableRawBufferPointer, _ state: UnsafeMutablePointer<inflate_state>
    ) throws(ImportError) -> Int {
        while true {
            if state.pointee.avail_in == 0 && !inputEnd {
                let n = SystemIO.read(fd, into: input.baseAddress!, count: input.count)
                guard n >= 0 else {
                    throw ImportError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
                }
                if n == 0 { inputEnd = true }
                consumed += Int64(n)
                state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                state.pointee.avail_in = UInt32(n)
            }
            state.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(buffer.count)
            let status = isal_inflate(state)
            let written = buffer.count - Int(state.pointee.avail_out)
            produced += Int64(written)
            guard status == ISAL_DECOMP_OK else {
                let at = consumed - Int64(state.pointee.avail_in)
                throw ImportError(
                    path: path, message: "is not valid gzip data (\(ArchiveStream.describe(status))) at byte \(at)")
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                finished = true
                return written
            }
            if written > 0 { return written }
            if inputEnd && state.pointee.avail_in == 0 {
                throw ImportError(path: path, message: "is a gzip stream cut short; the archive is truncated")
            }
        }
    }

    /// What ISA-L's inflate status means.
    static func describe(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: "an invalid deflate block"
        case ISAL_INVALID_SYMBOL: "an invalid deflate symbol"
        case ISAL_INVALID_LOOKBACK: "a back-reference before the start of the data"
        case ISAL_INVALID_WRAPPER: "not a gzip header"
        case ISAL_UNSUPPORTED_METHOD: "a compression method other than deflate"
        case ISAL_INCORRECT_CHECKSUM: "its checksum does not match its data"
        case ISAL_NEED_DICT: "it needs a preset dictionary"
        default: "inflate status \(status)"
        }
    }
}

import CZlib

/// zlib's deflate format, for checkpoint states: a state is mostly repeated names and
/// small numbers, and compressing it lets checkpoints sit closer together for the same
/// share of the store. A state deflated with the previous state of its device as the
/// preset dictionary stores little more than what changed between them.
enum Deflate {
    /// `bytes` compressed at `level` (1: fastest), with `dictionary` as zlib's preset
    /// dictionary when it is not empty.
    static func compress(_ bytes: [UInt8], level: Int32 = 1, dictionary: [UInt8] = []) -> [UInt8] {
        var out = [UInt8]()
        Deflater(level: level).compress(bytes, dictionary: dictionary, appendingTo: &out)
        return out
    }

    /// The `size` bytes that `bytes` inflates to, or nil when they are not a deflate
    /// stream of exactly that size made with this `dictionary` (zlib checks the
    /// dictionary's Adler-32).
    static func decompress(_ bytes: ArraySlice<UInt8>, size: Int, dictionary: [UInt8] = []) -> [UInt8]? {
        guard size >= 0, size <= 1 << 30 else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: size)
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                stream.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                var status = inflate(&stream, Z_FINISH)
                if status == Z_NEED_DICT {
                    guard !dictionary.isEmpty else { return status }
                    status = dictionary.withUnsafeBufferPointer { inflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
                    guard status == Z_OK else { return status }
                    status = inflate(&stream, Z_FINISH)
                }
                return status
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size, stream.avail_in == 0 else { return nil }
        return out
    }
}

/// A deflate stream kept open between compressions: setting zlib's state up (some 270 KB
/// of tables) costs as much as compressing a small state, so a series of checkpoints
/// resets one stream instead. The output is the same as a fresh stream's.
final class Deflater {
    private var stream = z_stream()
    private var used = false

    init(level: Int32 = 1) {
        let status = deflateInit_(&stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit failed with status \(status)")
    }

    deinit { deflateEnd(&stream) }

    /// Appends `bytes` compressed to `out`, with `dictionary` as the preset dictionary
    /// when it is not empty.
    func compress(_ bytes: [UInt8], dictionary: [UInt8], appendingTo out: inout [UInt8]) {
        if used { deflateReset(&stream) }
        used = true
        if !dictionary.isEmpty {
            let status = dictionary.withUnsafeBufferPointer { deflateSetDictionary(&stream, $0.baseAddress, uInt($0.count)) }
            precondition(status == Z_OK, "deflateSetDictionary failed with status \(status)")
        }
        let start = out.count
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        out.append(contentsOf: repeatElement(0, count: bound))
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                stream.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress! + start
                stream.avail_out = uInt(bound)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END, "deflate failed with status \(status)")
        out.removeSubrange((start + Int(stream.total_out))...)
    }
}

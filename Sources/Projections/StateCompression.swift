import CZstd

/// Zstandard (the system's libzstd), for checkpoint states: a state is mostly repeated
/// names and small numbers, and compressing it lets checkpoints sit closer together for
/// the same share of the store. A state compressed with the previous state of its device
/// as a prefix stores little more than what changed between them. Every frame carries a
/// checksum of its content, so a frame read with the wrong prefix, or damaged, is refused.
enum StateCompression {
    /// The compression level: 1, the fastest of Zstandard's regular levels.
    static let level: Int32 = 1
}

/// A decompression context kept for a chain of states (a checkpoint and those it was
/// compressed after).
final class StateDecompressor {
    private let context: OpaquePointer

    init?() {
        guard let context = ZSTD_createDCtx() else { return nil }
        self.context = context
    }

    deinit { ZSTD_freeDCtx(context) }

    /// The `size` bytes that `bytes` decompress to, or nil when they are not one frame of
    /// exactly that size whose checksum holds (as it does only with the `prefix` it was
    /// made with).
    func decompress(_ bytes: ArraySlice<UInt8>, size: Int, prefix: [UInt8] = []) -> [UInt8]? {
        guard size >= 0, size <= 1 << 30 else { return nil }
        ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { o -> Int? in
            bytes.withUnsafeBytes { i -> Int? in
                let status = prefix.withUnsafeBytes { p in ZSTD_DCtx_refPrefix(context, p.baseAddress, p.count) }
                // One frame, ending where the bytes end: anything after it is damage.
                guard ZSTD_isError(status) == 0, ZSTD_findFrameCompressedSize(i.baseAddress, i.count) == i.count,
                      ZSTD_getFrameContentSize(i.baseAddress, i.count) == UInt64(size) else { return nil }
                let n = ZSTD_decompressDCtx(context, o.baseAddress, o.count, i.baseAddress, i.count)
                return ZSTD_isError(n) == 0 ? n : nil
            }
        }
        guard written == size else { return nil }
        return out
    }
}

/// A compression context kept between states: setting one up costs as much as
/// compressing a small state, so a series of checkpoints reuses one. The output is the
/// same as a fresh context's.
final class StateCompressor {
    private let context: OpaquePointer

    init(level: Int32 = StateCompression.level) {
        guard let context = ZSTD_createCCtx() else { preconditionFailure("ZSTD_createCCtx failed") }
        self.context = context
        for (parameter, value) in [(ZSTD_c_compressionLevel, level), (ZSTD_c_checksumFlag, 1), (ZSTD_c_contentSizeFlag, 1)] {
            let status = ZSTD_CCtx_setParameter(context, parameter, value)
            precondition(ZSTD_isError(status) == 0, "ZSTD_CCtx_setParameter failed: \(String(cString: ZSTD_getErrorName(status)))")
        }
    }

    deinit { ZSTD_freeCCtx(context) }

    /// Appends `bytes` compressed to `out`, with `prefix` as the content that precedes
    /// them when it is not empty.
    func compress(_ bytes: [UInt8], prefix: [UInt8], appendingTo out: inout [UInt8]) {
        ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
        let start = out.count
        let bound = ZSTD_compressBound(bytes.count)
        out.append(contentsOf: repeatElement(0, count: bound))
        let n = out.withUnsafeMutableBytes { o in
            bytes.withUnsafeBytes { i in
                prefix.withUnsafeBytes { p in
                    if !p.isEmpty {
                        let status = ZSTD_CCtx_refPrefix(context, p.baseAddress, p.count)
                        precondition(ZSTD_isError(status) == 0, "ZSTD_CCtx_refPrefix failed")
                    }
                    return ZSTD_compress2(context, o.baseAddress! + start, bound, i.baseAddress, i.count)
                }
            }
        }
        precondition(ZSTD_isError(n) == 0, "ZSTD_compress2 failed: \(String(cString: ZSTD_getErrorName(n)))")
        out.removeSubrange((start + n)...)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The stretch of the memory map that a reader's buffers covered, from the lowest address
/// to the highest: what `Transaction.releasePages(_:)` hands back to the kernel once a
/// long read has moved past it.
public struct MapSpan: Sendable {
    private(set) var low = UInt.max
    private(set) var high: UInt = 0

    /// An empty span.
    public init() {}

    /// Widens the span to cover `buffer`, which points into the map (a key or value read
    /// in the current transaction).
    @inline(__always)
    public mutating func include(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        let start = UInt(bitPattern: base)
        low = Swift.min(low, start)
        high = Swift.max(high, start + UInt(buffer.count))
    }

    /// How many bytes it covers.
    public var count: Int { high > low ? Int(high - low) : 0 }
}

extension Transaction {
    /// Hands back the pages of the map that `span` covers (`madvise(MADV_DONTNEED)`):
    /// they leave this process's resident set and stay in the kernel's page cache, from
    /// which the next read of them maps them again. The map is read-only and shared, so
    /// nothing is lost; a long scan that releases what it has passed keeps its resident
    /// set small however large the store. `span` must hold only buffers read while this
    /// transaction is open (the map cannot move then).
    public func releasePages(_ span: MapSpan) {
        precondition(isOpen, "pages are released only while the transaction that read them is open")
        guard span.count > 0 else { return }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        // Whole pages: the map starts on a page and is a whole number of pages long.
        let start = span.low / page * page
        let end = (span.high + page - 1) / page * page
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
    }
}

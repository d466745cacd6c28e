internal import CLMDB

#if canImport(Glibc)
    import Glibc
#endif

/// The stretch of the memory map that a reader's buffers covered, from the lowest address
/// to the highest: what `Transaction.releasePages(_:)` hands back to the kernel once a
/// long read has moved past it.
public struct MapSpan: Sendable {
    private(set) var low = UInt.max
    private(set) var high: UInt = 0
    /// How many times a buffer included started on another page than the one before it.
    private var pagesEntered = 0
    private var lastPage = UInt.max

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
        let page = start / MapSpan.pageSize
        if page != lastPage {
            pagesEntered += 1
            lastPage = page
        }
    }

    /// How many bytes it covers, from its lowest address to its highest.
    public var count: Int { high > low ? Int(high - low) : 0 }

    /// The bytes of the pages its buffers were read from, each page counted once for every
    /// run of buffers on it: about what a read in address order brought into the resident
    /// set. A read of a few records scattered over the map enters few pages however far
    /// apart they lie, which `count` would not tell.
    public var bytesEntered: Int { pagesEntered * Int(MapSpan.pageSize) }

    /// The system's page size, the map's unit.
    static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
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
        let page = MapSpan.pageSize
        // Whole pages: the map starts on a page and is a whole number of pages long.
        let start = span.low / page * page
        let end = (span.high + page - 1) / page * page
        _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED)
    }

    /// Hands back `span`'s pages and empties it, once it covers at least `bytes`: a scan
    /// calls it as it goes, so that what it passed leaves the resident set.
    public func releasePages(_ span: inout MapSpan, atLeast bytes: Int) {
        guard span.count >= bytes else { return }
        releasePages(span)
        span = MapSpan()
    }

    /// Hands back every page of the map this process holds, for reads that jump about
    /// the store (a span of them would cover it all anyway). The map is found in
    /// `/proc/self/maps` by the data file's device and inode; where there is no such
    /// file, nothing happens.
    public func releaseAllPages() {
        precondition(isOpen, "pages are released only while a transaction is open")
        var fd: Int32 = -1
        var info = stat()
        guard mdb_env_get_fd(environment.handle, &fd) == 0, fstat(fd, &info) == 0 else { return }
        for range in MapSpan.mappings(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) {
            releasePages(range)
        }
    }
}

extension MapSpan {
    /// The address ranges of this process's mappings of the file with this device and
    /// inode, from `/proc/self/maps`.
    static func mappings(device: UInt64, inode: UInt64) -> [MapSpan] {
        guard let text = procFile("/proc/self/maps") else { return [] }
        // The device's major and minor numbers (glibc's encoding), which the kernel prints
        // in hexadecimal.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        func hex(_ bytes: ArraySlice<UInt8>) -> UInt64? { UInt64(String(decoding: bytes, as: UTF8.self), radix: 16) }
        var out = [MapSpan]()
        for line in text.split(separator: 0x0A) {
            // start-end perms offset major:minor inode [path]
            let fields = line.split(separator: 0x20, maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, UInt64(String(decoding: fields[4], as: UTF8.self)) == inode else { continue }
            let dev = fields[3].split(separator: UInt8(ascii: ":"))
            guard dev.count == 2, hex(dev[0]) == major, hex(dev[1]) == minor else { continue }
            let bounds = fields[0].split(separator: UInt8(ascii: "-"))
            guard bounds.count == 2, let low = UInt(String(decoding: bounds[0], as: UTF8.self), radix: 16),
                let high = UInt(String(decoding: bounds[1], as: UTF8.self), radix: 16), high > low
            else { continue }
            var span = MapSpan()
            span.low = low
            span.high = high
            out.append(span)
        }
        return out
    }
}

/// The whole of a file under /proc, read to its end (such files report no size, so a
/// read by size stops short); nil when it cannot be opened.
func procFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var text = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        text += chunk[..<n]
    }
    return text
}

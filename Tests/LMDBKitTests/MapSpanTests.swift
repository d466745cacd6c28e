import Foundation
import Testing

@testable import LMDBKit

@Suite("Releasing the map's pages")
struct MapSpanTests {
    /// The resident size of this process's mapping of `file`, in kB (from /proc/self/smaps).
    func residentKB(of file: String) throws -> Int {
        let smaps = String(decoding: try #require(procFile("/proc/self/smaps")), as: UTF8.self)
        var inFile = false
        var total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                // A mapping's header: range, permissions, offset, device, inode[, path].
                inFile = fields.count >= 6 && fields.last.map(String.init) == file
            } else if inFile, fields.first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) {
                total += kb
            }
        }
        return total
    }

    @Test("pages read and released, or the whole map, leave the resident set and read back the same")
    func releasedPagesLeaveTheResidentSet() throws {
        let dir = NSTemporaryDirectory() + "mapspan-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let env = try Environment(path: dir, options: .init(initialMapSize: 256 << 20))
        let db = try env.write { try $0.openDatabase("values", flags: .create) }
        // 32 MiB in 2,048 values of 16 KiB, each filled with its own number.
        let count = 2_048
        let size = 16 << 10
        try env.write { txn in
            for i in 0..<count {
                let key = withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }
                try txn.put(db, key: key, value: [UInt8](repeating: UInt8(i % 251), count: size))
            }
        }
        let file = (dir as NSString).appendingPathComponent("data.mdb")
        try env.read { (txn) throws in
            func readAll(into span: inout MapSpan) throws -> Bool {
                let cursor = try txn.cursor(db)
                var entry = try cursor.first()
                var i = 0
                var intact = true
                while let e = entry {
                    span.include(e.value)
                    // Touch every page of the value.
                    for offset in stride(from: 0, to: e.value.count, by: 4_096) where e.value[offset] != UInt8(i % 251)
                    { intact = false }
                    i += 1
                    entry = try cursor.next()
                }
                return intact && i == count
            }
            var span = MapSpan()
            #expect(try readAll(into: &span))
            #expect(span.count >= count * size)
            let before = try residentKB(of: file)
            txn.releasePages(span)
            let after = try residentKB(of: file)
            #expect(before >= 24 << 10)
            #expect(after < before / 4)
            // The same bytes come back from the page cache.
            var again = MapSpan()
            #expect(try readAll(into: &again))
            // The whole map at once, found by the file's device and inode.
            let reread = try residentKB(of: file)
            txn.releaseAllPages()
            #expect(reread >= 24 << 10)
            #expect(try residentKB(of: file) < reread / 4)
            #expect(try readAll(into: &again))
        }
    }

    @Test("the pages entered count each run of buffers on a page once, however far apart the pages lie")
    func pagesEntered() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * page, alignment: page)
        defer { memory.deallocate() }
        var span = MapSpan()
        // Three small buffers on the first page, one on the tenth, one on the sixtieth.
        for offset in [0, 100, 200, 9 * page + 8, 59 * page] {
            span.include(UnsafeRawBufferPointer(rebasing: memory[offset..<offset + 16]))
        }
        #expect(span.bytesEntered == 3 * page)
        #expect(span.count == 59 * page + 16)
        // Back to a page left before: entered again.
        span.include(UnsafeRawBufferPointer(rebasing: memory[0..<16]))
        #expect(span.bytesEntered == 4 * page)
        #expect(MapSpan().bytesEntered == 0)
    }
}

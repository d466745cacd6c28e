import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

extension Ingestor {
    /// The ids one validating thread has seen, kept as sorted runs in spool files, so that
    /// memory stays the same whatever the input's size: at most `runLength` ids are held
    /// at once, and reading them back in order holds one small buffer per run.
    struct SeenIDRuns: Sendable {
        let pathPrefix: String
        /// Ids per run; by default 262,144 of 24 bytes, 6 MiB.
        let runLength: Int
        private(set) var paths: [String] = []
        private var pending: [SeenID] = []

        init(pathPrefix: String, runLength: Int = 1 << 18) {
            self.pathPrefix = pathPrefix
            self.runLength = max(1, runLength)
        }

        mutating func append(_ id: SeenID) throws {
            if pending.isEmpty { pending.reserveCapacity(runLength) }
            pending.append(id)
            if pending.count >= runLength { try flush() }
        }

        /// Writes the ids held so far as one sorted run.
        mutating func flush() throws {
            guard !pending.isEmpty else { return }
            pending.sort()
            let path = "\(pathPrefix)-ids-\(paths.count)"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else {
                throw LedgerError(.storage, "cannot create the spool file \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(fd) }
            try pending.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = write(fd, raw.baseAddress! + done, raw.count - done)
                    guard n > 0 else {
                        throw LedgerError(
                            .storage, "cannot write the spool file \(path): \(String(cString: strerror(errno)))")
                    }
                    done += n
                }
            }
            paths.append(path)
            pending.removeAll(keepingCapacity: true)
        }

        /// Calls `body` with every id of every run in `runs`, in `SeenID` order.
        static func merge(_ runs: [String], _ body: (SeenID) throws -> Void) throws {
            var readers = try runs.map { try RunReader(path: $0) }
            // A binary min-heap of the readers' current ids.
            var heap = [(id: SeenID, run: Int)]()
            // No two ids are equal in this order: their input and line differ.
            func less(_ a: Int, _ b: Int) -> Bool { heap[a].id < heap[b].id }
            func down(_ start: Int) {
                var i = start
                while true {
                    let l = 2 * i + 1
                    let r = l + 1
                    var m = i
                    if l < heap.count && less(l, m) { m = l }
                    if r < heap.count && less(r, m) { m = r }
                    if m == i { return }
                    heap.swapAt(i, m)
                    i = m
                }
            }
            for k in readers.indices {
                if let id = try readers[k].next() { heap.append((id, k)) }
            }
            for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { down(i) }
            while let top = heap.first {
                try body(top.id)
                if let id = try readers[top.run].next() {
                    heap[0] = (id, top.run)
                } else {
                    heap[0] = heap[heap.count - 1]
                    heap.removeLast()
                }
                down(0)
            }
        }
    }

    /// Reads one run back through a fixed buffer.
    struct RunReader {
        static let bufferIDs = 1024
        var fd: Int32
        let path: String
        var buffer = [SeenID](repeating: SeenID(idHash: 0, input: 0, line: 0, offset: 0), count: RunReader.bufferIDs)
        var filled = 0
        var at = 0

        init(path: String) throws {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw LedgerError(.storage, "cannot read the spool file \(path): \(String(cString: strerror(errno)))")
            }
            self.path = path
        }

        /// The run's next id; nil (and the file closed) at its end.
        mutating func next() throws -> SeenID? {
            if at == filled {
                guard fd >= 0 else { return nil }
                let got = try buffer.withUnsafeMutableBytes { raw in
                    var got = 0
                    while got < raw.count {
                        let n = read(fd, raw.baseAddress! + got, raw.count - got)
                        guard n >= 0 else {
                            throw LedgerError(
                                .storage, "cannot read the spool file \(path): \(String(cString: strerror(errno)))")
                        }
                        if n == 0 { break }
                        got += n
                    }
                    return got
                }
                guard got % MemoryLayout<SeenID>.stride == 0 else {
                    throw LedgerError(.storage, "the spool file \(path) was cut short")
                }
                (filled, at) = (got / MemoryLayout<SeenID>.stride, 0)
                if filled == 0 {
                    close(fd)
                    fd = -1
                    return nil
                }
            }
            defer { at += 1 }
            return buffer[at]
        }
    }
}

import Ledger
package import SQLiteKit
import SmartStack

#if canImport(Glibc)
    import Glibc
#endif

/// Rows written as one NDJSON file per table (`TABLE.ndjson` in a directory), every row an
/// object of the table's columns in schema order, a numbered table's `id` given in order
/// from 1, as SQLite gives it: the same rows as the database, for readers of JSON lines
/// (Arrow's JSON reader, DuckDB's `read_json`). Every table's file is made, empty when
/// the table has no rows.
package final class NDJSONTableSink: TableSink {
    private var descriptors: [Int32]
    private var buffers: [[UInt8]]
    private var rows: [Int64]
    private var row = CanonicalWriter(capacity: 1 << 10)
    /// Bytes a table's buffer holds before they are written out.
    private static let flushBytes = 1 << 18

    /// Creates the tables' files in `directory`, which exists.
    package init(directory: String) throws(TableFileError) {
        descriptors = []
        for table in ExportTable.all {
            let path = directory + "/" + table.name + ".ndjson"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw TableFileError(path: path, operation: "create") }
            descriptors.append(fd)
        }
        buffers = Array(repeating: [], count: descriptors.count)
        rows = Array(repeating: 0, count: descriptors.count)
    }

    deinit {
        for fd in descriptors where fd >= 0 { close(fd) }
    }

    package func insert(_ table: ExportTable, _ values: [SQLValue]) throws -> Int64 {
        let t = table.position
        rows[t] += 1
        row.bytes.removeAll(keepingCapacity: true)
        row.beginObject()
        var columns = table.columns.makeIterator()
        if table.numbered {
            row.key(columns.next()!)
            row.integer(Int(rows[t]))
        }
        for value in values {
            row.key(columns.next()!)
            switch value {
            case .text(let s): row.string(s)
            case .integer(let n): row.integer(Int(n))
            case .real(let d): row.number(d)
            case .null: row.null()
            }
        }
        row.endObject()
        buffers[t].append(contentsOf: row.bytes)
        buffers[t].append(0x0A)
        if buffers[t].count >= Self.flushBytes { try flush(t) }
        return rows[t]
    }

    /// Writes out what every table's buffer holds and closes the files.
    package func finish() throws(TableFileError) {
        for t in descriptors.indices {
            try flush(t)
            close(descriptors[t])
            descriptors[t] = -1
        }
    }

    private func flush(_ t: Int) throws(TableFileError) {
        if let failed = buffers[t].withUnsafeBytes({ SystemIO.writeAll(descriptors[t], $0) }) {
            throw TableFileError(path: ExportTable.all[t].name + ".ndjson", operation: "write", errno: failed)
        }
        buffers[t].removeAll(keepingCapacity: true)
    }
}

/// A file of the tables' directory could not be made or written.
package struct TableFileError: Error, CustomStringConvertible {
    package let path: String
    package let operation: String
    package let reason: String

    init(path: String, operation: String, errno code: Int32 = errno) {
        self.path = path
        self.operation = operation
        self.reason = code == 0 ? "nothing was written" : String(cString: strerror(code))
    }

    package var description: String { "cannot \(operation) \(path): \(reason)" }
}

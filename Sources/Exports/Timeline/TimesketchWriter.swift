import Forensics
package import SmartStack

/// Writes timeline lines as Timesketch imports them: JSONL (one object per line, the three
/// required fields `message`, `datetime`, `timestamp_desc`, then `timestamp` and the
/// attributes, absent ones left out) or CSV (a header row, then every column in each row,
/// RFC 4180 quoting as `export projection` quotes).
package enum TimesketchWriter {
    /// One JSONL line, newline included.
    package static func jsonl(_ row: TimelineRow, context: TimelineContext, into w: inout CanonicalWriter) {
        w.beginObject()
        for (column, cell) in zip(TimelineRow.columns, row.cells(context)) {
            switch cell {
            case .text(let s):
                w.key(column)
                w.string(s)
            case .integer(let n):
                w.key(column)
                w.integer(Int(n))
            case .none: break
            }
        }
        w.endObject()
        w.bytes.append(0x0A)
    }

    /// The CSV header row, newline included.
    package static var csvHeader: String { TimelineRow.columns.joined(separator: ",") + "\n" }

    /// One CSV row, newline included.
    package static func csv(_ row: TimelineRow, context: TimelineContext) -> String {
        row.cells(context).map { cell in
            switch cell {
            case .text(let s): ProjectionExport.csvField(s)
            case .integer(let n): String(n)
            case .none: ""
            }
        }.joined(separator: ",") + "\n"
    }
}

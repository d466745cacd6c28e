import RecordFormat

/// The documentation's field tables, made from the shapes' own descriptions: what
/// docs/event-fields.md holds, and a test keeps it so.
enum FieldTable {
    /// One row: a field's key, JSON type and presence.
    struct Row: Equatable, Sendable {
        /// The key.
        var key: String
        /// The field as documented.
        var summary: FieldSummary
    }

    /// Collects the rows of one shape's description.
    struct Collector: FieldVisitor {
        var rows: [Row] = []

        mutating func field<C: FieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {
            rows.append(Row(key: "\(name)", summary: codec.summary))
        }

        mutating func jsonOnly<C: JSONFieldCodec>(_ name: StaticString, _ value: inout C.Value, _ codec: C) {
            rows.append(Row(key: "\(name)", summary: codec.summary))
        }

        mutating func binaryOnly<C: BinaryFieldCodec>(_ value: inout C.Value, _ codec: C) {}
    }

    /// The rows of a described shape, in contract order.
    static func rows<S: DescribedShape>(of _: S.Type) -> [Row] {
        var collector = Collector()
        var blank = S.blank
        // The collector never throws.
        try! blank.describe(&collector)
        return collector.rows
    }

    /// A Markdown table of the rows.
    static func markdown(_ rows: [Row]) -> String {
        var out = "| key | type | presence |\n|---|---|---|\n"
        for row in rows {
            let key = row.key.isEmpty ? "(other keys)" : "`\(row.key)`"
            out += "| \(key) | \(row.summary.type) | \(row.summary.presence) |\n"
        }
        return out
    }
}

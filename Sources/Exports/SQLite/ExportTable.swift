package import SQLiteKit

/// One table of `export sqlite` (docs/queries.md, "Tables"): its name and columns, read from
/// `SQLiteExport.schema`, so that every writer of the tables has the same columns in the
/// same order.
package struct ExportTable: Sendable {
    package let name: String
    /// The table's place in the schema.
    package let position: Int
    package let columns: [String]
    /// Whether the first column is an `id` that numbers the rows (1, 2, ...), given by
    /// the writer rather than by the row.
    package let numbered: Bool
    /// The statement that inserts a row's values (every column but a numbering `id`).
    let insertSQL: String

    init(definition: Substring, position: Int) {
        self.position = position
        // `CREATE TABLE name (column TYPE ..., ...);`
        let open = definition.firstIndex(of: "(")!
        name = String(definition.dropFirst("CREATE TABLE ".count).prefix { $0 != " " && $0 != "(" })
        let body = definition[definition.index(after: open)..<definition.lastIndex(of: ")")!]
        let pieces = body.split(separator: ", ")
        columns = pieces.map { String($0.prefix { $0 != " " }) }
        numbered = pieces.first.map { $0.hasPrefix("id INTEGER PRIMARY KEY") } ?? false
        let given = numbered ? Array(columns.dropFirst()) : columns
        insertSQL =
            "INSERT INTO \(name) (\(given.joined(separator: ", "))) VALUES (\(given.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// Every table of the schema, in its order.
    package static let all: [ExportTable] = SQLiteExport.schema.split(separator: "\n").enumerated().map {
        ExportTable(definition: $0.element.drop { $0 == " " }, position: $0.offset)
    }

    static func named(_ name: String) -> ExportTable { all.first { $0.name == name }! }

    static let meta = named("meta")
    static let events = named("events")
    static let decisions = named("decisions")
    static let reasons = named("reasons")
    static let reasonEvents = named("reason_events")
    static let observations = named("observations")
    static let disagreements = named("disagreements")
    static let states = named("states")
    static let assumptions = named("assumptions")
    static let calibration = named("calibration")
}

/// Where an export's rows go: a SQLite database, or one NDJSON file per table.
package protocol TableSink {
    /// Adds a row to `table`: its values in the table's column order, without the `id` of
    /// a numbered table, which the sink gives (the next number) and returns.
    @discardableResult
    mutating func insert(_ table: ExportTable, _ values: [SQLValue]) throws -> Int64
}

/// Rows inserted into the tables of a SQLite database that holds `SQLiteExport.schema`.
package struct SQLiteTableSink: TableSink {
    let db: SQLiteConnection

    package init(_ db: SQLiteConnection) { self.db = db }

    package mutating func insert(_ table: ExportTable, _ values: [SQLValue]) throws -> Int64 {
        try db.run(table.insertSQL, values)
    }
}

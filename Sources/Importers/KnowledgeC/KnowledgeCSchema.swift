import SQLiteKit

/// The parts of a knowledgeC.db schema the importer needs, resolved from the file itself:
/// Core Data numbers its entities per model version, so join-table and column names
/// (`Z_4EVENT.Z_11EVENT` on macOS 10.14, `Z_10EVENT` on 10.13) are looked up, never assumed.
struct KnowledgeCSchema {
    /// ZOBJECT's columns.
    var objectColumns: Set<String>
    /// ZSTRUCTUREDMETADATA's columns (empty when the table is missing).
    var metadataColumns: Set<String>
    /// ZSOURCE's columns (empty when the table is missing).
    var sourceColumns: Set<String>
    /// The table joining events to custom metadata, with its two columns, when present.
    var customMetadataJoin: (table: String, metadataColumn: String, eventColumn: String)?

    init(_ db: SQLiteConnection) throws(ImportError) {
        let tables: Set<String>
        do {
            tables = try db.tableNames()
            guard tables.contains("ZOBJECT") else {
                throw ImportError(path: "", message: "has no ZOBJECT table; it is not a knowledgeC database")
            }
            objectColumns = Set(try db.columns(of: "ZOBJECT"))
            for needed in ["Z_PK", "ZSTREAMNAME", "ZSTARTDATE"] where !objectColumns.contains(needed) {
                throw ImportError(
                    path: "",
                    message: "ZOBJECT has no \(needed) column; it is not a knowledgeC database this importer knows")
            }
            metadataColumns =
                tables.contains("ZSTRUCTUREDMETADATA") ? Set(try db.columns(of: "ZSTRUCTUREDMETADATA")) : []
            sourceColumns = tables.contains("ZSOURCE") ? Set(try db.columns(of: "ZSOURCE")) : []
            customMetadataJoin = try Self.resolveJoin(db, tables: tables)
        } catch let e as ImportError {
            throw e
        } catch {
            throw ImportError(path: "", message: "cannot read its schema: \(error)")
        }
    }

    /// Finds Z_<m>EVENT(Z_<m>CUSTOMMETADATA, Z_<e>EVENT) from Z_PRIMARYKEY's entity
    /// numbers, else by the shape of the tables.
    private static func resolveJoin(_ db: SQLiteConnection, tables: Set<String>) throws(SQLiteError) -> (
        String, String, String
    )? {
        var entities = [String: Int64]()
        if tables.contains("Z_PRIMARYKEY") {
            try db.query("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") { row in
                if let name = row.text(0), let ent = row.int(1) { entities[name] = ent }
            }
        }
        if let m = entities["CustomMetadata"], let e = entities["Event"] {
            let table = "Z_\(m)EVENT"
            let mc = "Z_\(m)CUSTOMMETADATA"
            let ec = "Z_\(e)EVENT"
            if tables.contains(table) {
                let columns = Set(try db.columns(of: table))
                if columns.contains(mc) && columns.contains(ec) { return (table, mc, ec) }
            }
        }
        for table in tables.sorted() where table.hasPrefix("Z_") && table.hasSuffix("EVENT") && table != "ZEVENT" {
            let columns = try db.columns(of: table)
            if let mc = columns.first(where: { $0.hasSuffix("CUSTOMMETADATA") }),
                let ec = columns.first(where: { $0.hasSuffix("EVENT") && $0.hasPrefix("Z_") })
            {
                return (table, mc, ec)
            }
        }
        return nil
    }

    /// `table.column` when the column exists, else `NULL`.
    func object(_ column: String) -> String { objectColumns.contains(column) ? "o.\(column)" : "NULL" }
    func metadata(_ column: String) -> String { metadataColumns.contains(column) ? "m.\(column)" : "NULL" }
    func source(_ column: String) -> String { sourceColumns.contains(column) ? "s.\(column)" : "NULL" }
}

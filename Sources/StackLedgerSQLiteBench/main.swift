import Foundation
import GRDB
import SQLiteKit

// Reads every row of the knowledgeC importer's query over a knowledgeC.db, column by
// column into Swift values, through SQLiteKit (the project's seam) and through GRDB.swift
// (a row cursor, values decoded by `row[i]`), in alternating rounds; prints each round's
// seconds and the medians. The difference is what GRDB would add to `import knowledgec`.
// Usage: StackLedgerSQLiteBench KNOWLEDGEC.DB [ROUNDS (5)]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: StackLedgerSQLiteBench KNOWLEDGEC.DB [ROUNDS]\n".utf8))
    exit(64)
}
let path = arguments[1]
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5

/// The importer's query on a knowledgeC.db of iOS's schema (Sources/Importers/KnowledgeC).
let sql = """
    SELECT o.Z_PK, o.ZSTREAMNAME, o.ZVALUESTRING, o.ZVALUEINTEGER, o.ZSTARTDATE, o.ZENDDATE, o.ZCREATIONDATE,
           o.ZSECONDSFROMGMT, s.ZBUNDLEID, s.ZGROUPID,
           m.Z_DKINTENTMETADATAKEY__INTENTCLASS, m.Z_DKINTENTMETADATAKEY__INTENTVERB,
           m.Z_DKINTENTMETADATAKEY__DERIVEDINTENTIDENTIFIER, m.Z_DKINTENTMETADATAKEY__DONATEDBYSIRI,
           m.Z_DKRELEVANTSHORTCUTMETADATAKEY__SERIALIZEDRELEVANTSHORTCUT
    FROM ZOBJECT o LEFT JOIN ZSTRUCTUREDMETADATA m ON o.ZSTRUCTUREDMETADATA = m.Z_PK
    LEFT JOIN ZSOURCE s ON o.ZSOURCE = s.Z_PK
    ORDER BY o.Z_PK
    """

/// What a pass reads, folded so that no read can be left out by the optimiser.
struct Tally: Equatable {
    var rows = 0
    var textBytes = 0
    var integers: Int64 = 0
    var seconds = 0.0
    var blobBytes = 0

    mutating func add(text: String?) { textBytes &+= text?.utf8.count ?? 0 }
    mutating func add(integer: Int64?) { integers &+= integer ?? 0 }
    mutating func add(double: Double?) { seconds += double ?? 0 }
}

func readWithSQLiteKit() throws -> Tally {
    let db = try SQLiteConnection.open(path, mode: .immutable)
    var t = Tally()
    try db.query(sql) { row in
        t.rows += 1
        t.add(integer: row.int(0))
        t.add(text: row.text(1))
        t.add(text: row.text(2))
        t.add(integer: row.int(3))
        for i: Int32 in 4...6 { t.add(double: row.double(i)) }
        t.add(integer: row.int(7))
        for i: Int32 in 8...12 { t.add(text: row.text(i)) }
        t.add(integer: row.int(13))
        t.blobBytes += row.blob(14)?.count ?? 0
    }
    return t
}

func readWithGRDB() throws -> Tally {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    return try queue.read { db in
        var t = Tally()
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            t.rows += 1
            t.add(integer: row[0] as Int64?)
            t.add(text: row[1] as String?)
            t.add(text: row[2] as String?)
            t.add(integer: row[3] as Int64?)
            for i in 4...6 { t.add(double: row[i] as Double?) }
            t.add(integer: row[7] as Int64?)
            for i in 8...12 { t.add(text: row[i] as String?) }
            t.add(integer: row[13] as Int64?)
            t.blobBytes += (row[14] as Data?)?.count ?? 0
        }
        return t
    }
}

func timed(_ body: () throws -> Tally) rethrows -> (Double, Tally) {
    let start = DispatchTime.now().uptimeNanoseconds
    let tally = try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, tally)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var ours = [Double]()
var grdb = [Double]()
var checked: Tally?
for round in 1...rounds {
    let (a, ta) = try timed(readWithSQLiteKit)
    let (b, tb) = try timed(readWithGRDB)
    guard ta == tb, checked == nil || checked == ta else {
        FileHandle.standardError.write(Data("the two readers read different values: \(ta) against \(tb)\n".utf8))
        exit(1)
    }
    checked = ta
    ours.append(a)
    grdb.append(b)
    print("round \(round): SQLiteKit \(String(format: "%.3f", a)) s, GRDB \(String(format: "%.3f", b)) s")
}
let rows = checked?.rows ?? 0
print(
    "\(rows) rows, medians of \(rounds): SQLiteKit \(String(format: "%.3f", median(ours))) s, GRDB \(String(format: "%.3f", median(grdb))) s (GRDB / SQLiteKit \(String(format: "%.2f", median(grdb) / median(ours))))"
)

import ArgumentParser
import CBaselines
import Foundation
import Ingestion
import Ledger
import SmartStack
import StackLedgerTesting
import Synchronization

/// Measures the ledger against its baselines, in one run: raw LMDB in C, SQLite in C,
/// and Foundation's JSONDecoder. Reports medians of repeated runs and the ratios.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackledger-bench",
        abstract: "Benchmark append, ingest and scan against raw LMDB, SQLite and JSONDecoder.")

    @Option(help: "Events in the synthetic workload (ignored with --input).") var events = 1_000_000
    @Option(help: "An NDJSON workload file to use instead of generating one.") var input: String?
    @Option(help: "Repetitions of each measurement (the median is reported).") var repeats = 3
    @Option(help: "Events per commit.") var batchSize = 4096
    @Option(help: "Directory for the stores (default: a new one under $TMPDIR).") var workDirectory: String?
    @Flag(help: "Print the results as JSON.") var json = false
    @Option(help: "Run only the measurements whose names contain this text (the decode always runs).") var only: String?

    func wanted(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

    func run() throws {
        let dir = workDirectory ?? (NSTemporaryDirectory() + "stackledger-bench-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if workDirectory == nil { try? FileManager.default.removeItem(atPath: dir) } }
        let path = try input ?? generate(into: dir)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let lines = splitLines(data)
        progress("workload: \(lines.count) events, \(data.count) bytes of NDJSON")
        var results = Results(events: lines.count, ndjsonBytes: data.count)

        // Decode with our parser, and with Foundation's JSONDecoder.
        var prebuilt = [Event]()
        results.add(
            "decode (StackLedger NDJSON parser)", lines.count, measure { prebuilt = try decodeAll(data, lines) })
        if wanted("Foundation") {
            // The same lines as ingest, on one core, then on two (two decoders, two halves).
            results.add(
                "decode (Foundation JSONDecoder, typed Decodable model), one core", lines.count,
                measure { try foundationDecode(data, lines, threads: 1) })
            results.add(
                "decode (Foundation JSONDecoder, typed Decodable model), both cores", lines.count,
                measure { try foundationDecode(data, lines, threads: 2) })
        }

        // The library's pipelined append and its two baselines, measured in alternating
        // rounds so that a noisy machine slows all three alike.
        let batches = stride(from: 0, to: prebuilt.count, by: batchSize).map {
            Array(prebuilt[$0..<min($0 + batchSize, prebuilt.count)])
        }
        let first = "\(dir)/append-0"
        try? FileManager.default.removeItem(atPath: first)
        try Ledger(path: first).appendAll(batches)
        let operations = try Ledger(path: first, options: .init(readOnly: true)).writeOperations()
        let stats = try Ledger(path: first, options: .init(readOnly: true)).statistics()
        results.bytesPerEvent = Double(stats.usedBytes) / Double(stats.events)
        let batchEnds = batchBoundaries(operations, batchSize: batchSize)
        var times: [[Double]] = [[], [], []]
        try withCPuts(operations) { puts in
            for round in 1...repeats {
                times[0] += measure(1) { _ in
                    let store = "\(dir)/append-\(round)"
                    try? FileManager.default.removeItem(atPath: store)
                    try Ledger(path: store).appendAll(batches)
                    try? FileManager.default.removeItem(atPath: store)
                }
                times[1] += measure(1) { _ in
                    let store = "\(dir)/c-lmdb-\(round)"
                    try? FileManager.default.removeItem(atPath: store)
                    let rc = batchEnds.withUnsafeBufferPointer { ends in
                        cb_lmdb_replay(store, puts.baseAddress, puts.count, ends.baseAddress, ends.count, 64 << 20)
                    }
                    guard rc == 0 else { throw BenchFailure("LMDB baseline failed: \(rc)") }
                    try? FileManager.default.removeItem(atPath: store)
                }
                if wanted("SQLite") {
                    times[2] += measure(1) { _ in
                        let file = "\(dir)/sqlite-\(round).db"
                        for suffix in ["", "-wal", "-shm"] {
                            try? FileManager.default.removeItem(atPath: file + suffix)
                        }
                        let rc = batchEnds.withUnsafeBufferPointer { ends in
                            cb_sqlite_replay(file, puts.baseAddress, puts.count, ends.baseAddress, ends.count)
                        }
                        guard rc == 0 else { throw BenchFailure("SQLite baseline failed: \(rc)") }
                        // The same work: as many distinct index keys as the ledger's index.
                        let sqliteKeys = cb_sqlite_distinct(file, "SELECT COUNT(DISTINCT key) FROM keys")
                        let ledgerKeys = cb_lmdb_distinct_keys(first, "index.keys")
                        guard sqliteKeys == ledgerKeys, ledgerKeys > 0 else {
                            throw BenchFailure(
                                "SQLite's keys table holds \(sqliteKeys) distinct keys, the ledger's index \(ledgerKeys)"
                            )
                        }
                        if round == 1 {
                            progress("SQLite and the ledger's index hold \(ledgerKeys) distinct keys each")
                        }
                        for suffix in ["", "-wal", "-shm"] {
                            try? FileManager.default.removeItem(atPath: file + suffix)
                        }
                    }
                }
            }
        }
        results.add("append pre-built events (Ledger, durable, all indices)", prebuilt.count, times[0])
        results.add(
            "append same log and index puts (plain C loop over LMDB; no string, batch or chain-head puts)",
            prebuilt.count, times[1])
        results.add("store same records and indices (SQLite WAL, synchronous=FULL)", prebuilt.count, times[2])

        // NDJSON ingest end to end (validate, parse, encode, append, commit).
        if wanted("ingest") {
            results.add(
                "ingest NDJSON end to end (validate, parse, encode, append)", lines.count,
                measure { run in
                    let store = "\(dir)/ingest-\(run)"
                    defer { try? FileManager.default.removeItem(atPath: store) }
                    try? FileManager.default.removeItem(atPath: store)
                    var options = Ingestor.Options()
                    options.batchSize = batchSize
                    let summary = try Ingestor(ledger: try Ledger(path: store), options: options)
                        .run([.init(path: path, displayName: path)])
                    guard summary.stored == lines.count else {
                        throw BenchFailure("ingest stored \(summary.stored) of \(lines.count)")
                    }
                })
        }

        // Full scan with decode.
        let scanStore = try Ledger(path: first, options: .init(readOnly: true))
        results.add(
            "full scan with decode", prebuilt.count,
            measure { _ in
                var n = 0
                try scanStore.read { r in
                    try r.scan { view in
                        _ = try Event(record: view)
                        n += 1
                        return true
                    }
                }
                guard n == prebuilt.count else { throw BenchFailure("scanned \(n)") }
            })
        results.add(
            "full scan with decode, both cores", prebuilt.count,
            measure { _ in
                let n = try scanStore.scanInParallel(threads: 2) { view in _ = try Event(record: view) }
                guard n == prebuilt.count else { throw BenchFailure("scanned \(n)") }
            })
        results.print(json: json)
    }

    // MARK: helpers

    func progress(_ s: String) { FileHandle.standardError.write(Data(("bench: " + s + "\n").utf8)) }

    func generate(into dir: String) throws -> String {
        let path = dir + "/workload.ndjson"
        var config = WorkloadGenerator.Configuration()
        config.events = events
        var generator = WorkloadGenerator(config)
        var out = [UInt8]()
        generator.writeNDJSON { out.append(contentsOf: $0) }
        try Data(out).write(to: URL(fileURLWithPath: path))
        return path
    }

    func splitLines(_ data: Data) -> [Range<Int>] {
        var out = [Range<Int>]()
        data.withUnsafeBytes { raw in
            var start = 0
            for i in 0..<raw.count where raw[i] == 0x0A {
                if i > start { out.append(start..<i) }
                start = i + 1
            }
            if start < raw.count { out.append(start..<raw.count) }
        }
        return out
    }

    func decodeAll(_ data: Data, _ lines: [Range<Int>]) throws -> [Event] {
        var decoder = EventDecoder()
        var out = [Event]()
        out.reserveCapacity(lines.count)
        try data.withUnsafeBytes { raw in
            for r in lines { out.append(try decoder.decode(line: UnsafeRawBufferPointer(rebasing: raw[r]))) }
        }
        return out
    }

    /// Decodes `lines` with `JSONDecoder`, split into `threads` contiguous parts decoded at once.
    func foundationDecode(_ data: Data, _ lines: [Range<Int>], threads: Int) throws {
        let failure = Mutex<(any Error)?>(nil)
        let part = (lines.count + threads - 1) / threads
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            let decoder = JSONDecoder()
            do {
                for r in lines[min(t * part, lines.count)..<min((t + 1) * part, lines.count)] {
                    _ = try decoder.decode(FoundationEvent.self, from: data[r])
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw BenchFailure("JSONDecoder failed on the workload: \(error)") }
    }

    func batchBoundaries(_ ops: [WriteOperation], batchSize: Int) -> [Int] {
        var ends = [Int]()
        var records = 0
        for (i, op) in ops.enumerated() where op.database == 0 {
            records += 1
            if records % batchSize == 0 {
                // The batch ends after this record's index entries.
                var j = i + 1
                while j < ops.count && ops[j].database != 0 && ops[j].database != 3 { j += 1 }
                ends.append(j)
            }
        }
        if ends.last != ops.count { ends.append(ops.count) }
        return ends
    }

    func withCPuts(_ ops: [WriteOperation], _ body: (UnsafeBufferPointer<cb_put>) throws -> Void) throws {
        // Keep every key and value in one arena so that the pointers stay valid.
        var arena = [UInt8]()
        arena.reserveCapacity(ops.reduce(0) { $0 + $1.key.count + $1.value.count })
        var offsets = [(Int, Int)]()
        for op in ops {
            offsets.append((arena.count, arena.count + op.key.count))
            arena.append(contentsOf: op.key)
            arena.append(contentsOf: op.value)
        }
        try arena.withUnsafeBytes { base in
            var puts = [cb_put]()
            puts.reserveCapacity(ops.count)
            for (op, (k, v)) in zip(ops, offsets) {
                puts.append(
                    cb_put(
                        key: base.baseAddress! + k, key_length: op.key.count,
                        value: base.baseAddress! + v, value_length: op.value.count, database: op.database))
            }
            try puts.withUnsafeBufferPointer { try body($0) }
        }
    }

    /// Times `body`; a measurement that fails ends the benchmark with a non-zero exit,
    /// naming it: no row is ever printed for it.
    func measure(_ count: Int? = nil, _ body: (Int) throws -> Void) -> [Double] {
        var times = [Double]()
        for run in 0..<(count ?? repeats) {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                try body(run)
            } catch {
                progress("failed: \(error)")
                Foundation.exit(1)
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return times
    }

    func measure(_ body: () throws -> Void) -> [Double] { measure { (_: Int) in try body() } }
}

/// A baseline or measurement that did not do its work.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

Bench.main()

import Foundation
import Importers
import ZIPFoundation

// Weighs ZIPFoundation against the extraction's own zip reader (Sources/Importers/Extraction).
//   StackLedgerZipBench time ARCHIVE.zip [ROUNDS (5)]
//     reads every member of the archive whole, CRC-32 checked, in alternating rounds; prints
//     each round's seconds and the medians.
//   StackLedgerZipBench judge FILE...
//     reads each file with both readers and prints one line per file: `ours` and `zipfoundation`
//     each `ok N` (members read), `error` (ours with its message) or, for ZIPFoundation run
//     in a child process, `crash` (killed by a signal); then the count of each pair of outcomes.
//   StackLedgerZipBench one FILE
//     the child: reads FILE with ZIPFoundation; exit 0 when it reads, 1 when it throws.

/// Every member read whole with ZIPFoundation, each one's CRC-32 compared with its
/// directory entry's (ZIPFoundation's consumer API returns the CRC and leaves the check to the
/// caller); the bytes read.
func readWithZIPFoundation(_ path: String) throws -> (members: Int, bytes: Int) {
    struct CRCMismatch: Error {}
    let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
    var members = 0
    var bytes = 0
    for entry in archive {
        members += 1
        guard entry.type == .file else { continue }
        let crc = try archive.extract(entry) { bytes += $0.count }
        if crc != entry.checksum { throw CRCMismatch() }
    }
    return (members, bytes)
}

/// Every member read whole with the extraction's reader, CRC-32 checked; the first member
/// that fails throws.
func readWithOurs(_ path: String) throws -> Int {
    try ArchiveWalk.readEvery(path: path)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func time(_ path: String, rounds: Int) throws {
    var ours = [Double]()
    var theirs = [Double]()
    for round in 1...rounds {
        var a = 0
        var b = 0
        ours.append(try seconds { a = try readWithOurs(path) })
        theirs.append(try seconds { b = try readWithZIPFoundation(path).members })
        guard a == b else {
            FileHandle.standardError.write(Data("the readers met \(a) and \(b) members\n".utf8))
            exit(1)
        }
        print(
            "round \(round): \(a) members; ours \(String(format: "%.3f", ours.last!)) s, ZIPFoundation \(String(format: "%.3f", theirs.last!)) s"
        )
    }
    print(
        "medians of \(rounds): ours \(String(format: "%.3f", median(ours))) s, ZIPFoundation \(String(format: "%.3f", median(theirs))) s (ZIPFoundation / ours \(String(format: "%.2f", median(theirs) / median(ours))))"
    )
}

/// ZIPFoundation's outcome on `path`, read in a child process so that a trap is counted.
func zipFoundationOutcome(_ path: String) throws -> String {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["one", path]
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    child.waitUntilExit()
    if child.terminationReason == .uncaughtSignal { return "crash" }
    return child.terminationStatus == 0 ? "ok" : "error"
}

func judge(_ paths: [String]) throws {
    var counts = [String: Int]()
    for path in paths {
        let ours: String
        var why = ""
        do { ours = "ok \(try readWithOurs(path))" } catch {
            ours = "error"
            why = "\t\(error)"
        }
        let theirs = try zipFoundationOutcome(path)
        let key = "ours \(ours.hasPrefix("ok") ? "ok" : ours), ZIPFoundation \(theirs)"
        counts[key, default: 0] += 1
        print("\(URL(fileURLWithPath: path).lastPathComponent)\tours \(ours)\tzipfoundation \(theirs)\(why)")
    }
    for (key, n) in counts.sorted(by: { $0.key < $1.key }) { print("\(n) archives: \(key)") }
}

let arguments = CommandLine.arguments
switch arguments.count > 2 ? arguments[1] : "" {
case "time": try time(arguments[2], rounds: arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5)
case "judge": try judge(Array(arguments.dropFirst(2)))
case "one": exit((try? readWithZIPFoundation(arguments[2])) == nil ? 1 : 0)
default:
    FileHandle.standardError.write(
        Data("usage: StackLedgerZipBench time ARCHIVE [ROUNDS] | judge FILE... | one FILE\n".utf8))
    exit(64)
}

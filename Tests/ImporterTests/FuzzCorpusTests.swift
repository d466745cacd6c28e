import Foundation
import FuzzOracles
import StackLedgerTesting
import Testing

/// The corpora that `tools/fuzz` keeps under Tests/Fuzz, and the inputs that once crashed,
/// run through the same oracles as the fuzz targets: a regression fails the suite.
@Suite("Fuzz corpora")
struct FuzzCorpusTests {
    static let oracles: [(target: String, run: @Sendable (UnsafePointer<UInt8>, Int) -> CInt)] = [
        ("FuzzNDJSON", fuzzNDJSON), ("FuzzRecord", fuzzRecord), ("FuzzSEGB", fuzzSEGB),
        ("FuzzPlist", fuzzPlist), ("FuzzProtobuf", fuzzProtobuf), ("FuzzArchive", fuzzArchive),
    ]

    /// Runs `oracle` on every file of `directory`; returns how many it ran.
    static func runAll(_ directory: String, _ oracle: (UnsafePointer<UInt8>, Int) -> CInt) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            // An empty input is passed as a valid pointer to nothing, as libFuzzer does.
            var padded = bytes + [0]
            _ = padded.withUnsafeMutableBufferPointer { oracle($0.baseAddress!, bytes.count) }
        }
        return names.count
    }

    @Test("every kept input of every target passes its oracle", arguments: 0..<6)
    func corpus(_ k: Int) throws {
        let (target, oracle) = Self.oracles[k]
        let ran = try Self.runAll(Fixtures.repositoryRoot + "/Tests/Fuzz/" + target, oracle)
        #expect(ran >= 300, "\(target): \(ran) inputs")
    }

    @Test("the engine answers every query on random logs of extreme but valid events without a crash")
    func extremeEvents() {
        var rng = SplitMix64(seed: 28)
        var events = 0
        var decisions = 0
        var answered = 0
        for round in 0..<150 {
            let bytes = (0..<(48 + round % 80)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let r = bytes.withUnsafeBufferPointer { replayExtremeLog($0) }
            (events, decisions, answered) = (events + r.events, decisions + r.decisions, answered + r.answerBytes)
        }
        // The logs were not all refused: the engine had events, made decisions and answered.
        #expect(
            events > 1_000 && decisions > 50 && answered > 100_000,
            "\(events) events, \(decisions) decisions, \(answered) bytes")
    }

    @Test("the inputs that once crashed a parser pass every oracle")
    func regressions() throws {
        for (_, oracle) in Self.oracles {
            #expect(try Self.runAll(Fixtures.path("fuzz-regressions"), oracle) >= 3)
        }
    }
}

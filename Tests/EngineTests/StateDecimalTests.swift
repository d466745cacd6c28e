import Testing

@testable import SmartStack

/// Scores, durations and times in a checkpoint are written short and read back bit for bit.
@Suite("Compact numbers in a state")
struct StateDecimalTests {
    /// Values apps send, and values no decimal form holds.
    static let doubles: [Double] = [
        0, 1, 0.7, 0.1, 0.66, 98.52981, 1_800, 1_200.5, -3.25, 1e-7, 123_456.789_012_3, 9_007_199_254_740_992,
        1e300, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3.0,
        Double(bitPattern: 0x7FF8_0000_0000_0123),
    ]

    @Test("every double reads back with the same bits; decimal ones take at most 5 bytes")
    func decimals() throws {
        var random = SystemRandomNumberGenerator()
        var values = Self.doubles
        for _ in 0..<2_000 { values.append(Double(bitPattern: random.next())) }
        for _ in 0..<2_000 { values.append(Double(Int.random(in: -1_000_000...1_000_000)) / 1_000) }
        for v in values {
            var w = StateWriter()
            w.decimal(v)
            var r = StateReader(w.bytes)
            let read = try #require(try r.decimal())
            #expect(read.bitPattern == v.bitPattern, "\(v)")
            #expect(r.offset == w.bytes.count)
        }
        for v in [0.7, 98.52981, 1_800, -3.25, 0.66] {
            var w = StateWriter()
            w.decimal(v)
            #expect(w.bytes.count <= 5, "\(v): \(w.bytes.count) bytes")
        }
        var w = StateWriter()
        w.decimal(nil)
        var r = StateReader(w.bytes)
        #expect(try r.decimal() == nil)
        // Tag 10 is none of the forms.
        var bad = StateReader([10])
        #expect(throws: StateReader.Malformed.self) { try bad.decimal() }
    }

    @Test("runs of times, sentinels among them, read back; whole seconds apart take 2 bytes")
    func times() throws {
        let runs: [[Int64]] = [
            [],
            [1_780_000_000_000_000, 1_780_000_900_000_000, 1_780_001_800_000_000],
            [.min, 0, 1, -1, 1 << 60, -(1 << 60), (1 << 60) - 1, .max, .min, 1_780_000_000_123_457],
        ]
        for run in runs {
            var w = StateWriter()
            w.times(run, count: run.count)
            var r = StateReader(w.bytes)
            #expect(try r.times() == run)
            #expect(r.offset == w.bytes.count)
        }
        var w = StateWriter()
        w.timeDelta(900_000_000)
        #expect(w.bytes.count == 2)
        // 3 and 6 in the low bits are no form.
        for v in [3, 6] as [UInt8] {
            var bad = StateReader([v])
            #expect(throws: StateReader.Malformed.self) { try bad.timeDelta() }
        }
    }

    @Test("timeline entries read back field for field")
    func entries() throws {
        let entries = [
            StoredEntry(date: 1_780_000_000_000_000, offset: 60, score: 0.7, duration: 1_800, seq: 42),
            StoredEntry(date: 1_780_000_900_000_000, offset: 60, score: nil, duration: 900, seq: 42),
            StoredEntry(date: 1_780_000_450_123_456, offset: -300, score: .nan, duration: -0.0, seq: 7),
            StoredEntry(date: .max, offset: .min, score: 1e300, duration: .infinity, seq: .max),
        ]
        for delivered in [Int64.min, 0, 1_779_999_000_000_000] {
            var w = StateWriter()
            w.entries(entries, after: delivered)
            var r = StateReader(w.bytes)
            let read = try r.entries(after: delivered)
            #expect(r.offset == w.bytes.count)
            #expect(read.count == entries.count)
            for (a, b) in zip(read, entries) {
                #expect(a.date == b.date && a.offset == b.offset && a.seq == b.seq)
                #expect(a.score?.bitPattern == b.score?.bitPattern && a.duration.bitPattern == b.duration.bitPattern)
            }
        }
    }
}

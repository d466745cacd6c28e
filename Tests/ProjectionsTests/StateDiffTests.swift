import SmartStack
import Testing

@testable import Projections

@Suite("Runs found between two states")
struct StateDiffTests {
    /// `count` bytes from a linear congruential generator started at `seed`.
    func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> 56)
        }
    }

    /// The bytes of `state` that the value of `copies` stores as they are.
    func literalCount(_ state: [UInt8], _ copies: [StateCopy]) -> Int {
        state.count - copies.reduce(0) { $0 + $1.count }
    }

    /// Checks that `copies` are ascending, apart and within both states, that each is the
    /// same bytes in both, and that the checkpoint value made with them restores `state`.
    func expectRestores(_ state: [UInt8], from base: [UInt8], _ copies: [StateCopy]) throws {
        var end = 0
        for c in copies {
            #expect(c.at >= end && c.count > 0 && c.at + c.count <= state.count && c.from + c.count <= base.count)
            #expect(state[c.at..<(c.at + c.count)] == base[c.from..<(c.from + c.count)])
            end = c.at + c.count
        }
        let value = CheckpointValue.encode(
            highSeq: 1, state: state, base: (time: 1, seq: 1, state: base), copies: copies)
        #expect(try #require(CheckpointValue(value)).state(after: base) == state)
    }

    @Test("bytes moved by an insertion near the start are found in their new place")
    func shiftedBytes() throws {
        let before = pseudoRandomBytes(20_000, seed: 7)
        let after = Array(before[0..<300]) + [9, 9, 9, 9, 9] + Array(before[300...])
        let copies = StateDiff.copies(of: after, from: before, keeping: [])
        try expectRestores(after, from: before, copies)
        #expect(literalCount(after, copies) <= 5 + 2 * StateDiff.block)
        #expect(copies.count <= 3)
    }

    @Test("changed, inserted and deleted bytes are all that is left to store")
    func scatteredEdits() throws {
        var before = pseudoRandomBytes(33_000, seed: 3)
        // Repeated bytes too, as a state's zeroes and names repeat.
        before.replaceSubrange(1_000..<1_400, with: repeatElement(0, count: 400))
        var after = before
        var x: UInt64 = 99
        for _ in 0..<40 {
            x = x &* 6_364_136_223_846_793_005 &+ 1
            let at = Int(x >> 40) % (after.count - 50)
            switch (x >> 20) % 3 {
            case 0: after[at] ^= 0x5A
            case 1: after.insert(contentsOf: pseudoRandomBytes(7, seed: x), at: at)
            default: after.removeSubrange(at..<(at + 6))
            }
        }
        let copies = StateDiff.copies(of: after, from: before, keeping: [])
        try expectRestores(after, from: before, copies)
        // Each edit costs at most the edit and the short runs beside it.
        #expect(literalCount(after, copies) <= 40 * (7 + 2 * StateDiff.shortest))
        #expect(literalCount(after, copies) >= 1)
    }

    @Test("the runs already known are kept as they are, in order, and runs are found around them")
    func keepsKnownRuns() throws {
        let before = pseudoRandomBytes(12_000, seed: 21)
        let known = StateCopy(at: 2_000, from: 8_000, count: 3_000)
        var after = Array(before[100..<2_100])
        after += before[8_000..<11_000]
        after += pseudoRandomBytes(64, seed: 5)
        after += before[0..<1_000]
        let copies = StateDiff.copies(of: after, from: before, keeping: [known])
        try expectRestores(after, from: before, copies)
        #expect(copies.contains(known))
        #expect(copies.first == StateCopy(at: 0, from: 100, count: 2_000))
        #expect(copies.last == StateCopy(at: 5_064, from: 0, count: 1_000))
        #expect(literalCount(after, copies) == 64)
    }

    @Test("unrelated bytes are stored as they are, and the same states always give the same runs")
    func unrelatedAndDeterministic() throws {
        let before = pseudoRandomBytes(8_000, seed: 1)
        let after = pseudoRandomBytes(8_000, seed: 2)
        let copies = StateDiff.copies(of: after, from: before, keeping: [])
        #expect(copies.isEmpty)
        let shifted = Array(before[1...]) + [0]
        #expect(
            StateDiff.copies(of: shifted, from: before, keeping: [])
                == StateDiff.copies(of: shifted, from: before, keeping: []))
        #expect(StateDiff.copies(of: [1, 2, 3], from: before, keeping: []).isEmpty)
        #expect(StateDiff.copies(of: shifted, from: [1, 2], keeping: []).isEmpty)
    }
}

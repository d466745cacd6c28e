import SmartStack
import Testing

@testable import Projections

@Suite("Checkpoint values")
struct CheckpointFormatTests {
    /// `count` bytes from a linear congruential generator started at `seed`, each its
    /// state's top bits from `shift` on.
    func pseudoRandomBytes(_ count: Int, seed: UInt64, shift: UInt64) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> shift)
        }
    }

    @Test("a state standing alone is stored as an LZ4 block, with its size and checksum, and read back the same")
    func roundTrip() throws {
        // Random bytes do not compress; the block holds them all the same.
        let state = pseudoRandomBytes(24_000, seed: 1, shift: 58)
        let value = CheckpointValue.encode(highSeq: 42, state: state, base: nil)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.highSeq == 42 && parsed.size == state.count && parsed.base == nil && parsed.copies.isEmpty)
        #expect(parsed.literals.count == value.count - CheckpointValue.headerSize - 1 - 4)
        #expect(parsed.state(after: []) == state)
        // A state's days of usage records repeat their shape: the block keeps under half.
        let day = pseudoRandomBytes(1_800, seed: 7, shift: 60)
        let days = (0..<12).flatMap { index in day.map { $0 ^ UInt8(index & 3) } }
        let repeated = try #require(CheckpointValue(CheckpointValue.encode(highSeq: 1, state: days, base: nil)))
        #expect(repeated.literals.count * 2 < days.count)
        #expect(repeated.state(after: []) == days)
        // An empty state is an empty block.
        #expect(
            try #require(CheckpointValue(CheckpointValue.encode(highSeq: 0, state: [], base: nil))).state(after: [])
                == [])
    }

    @Test("a state with nothing copied from the one before stands alone, whatever base it is given")
    func noRunsNoBase() throws {
        let before = pseudoRandomBytes(20_000, seed: 0x9E37_79B9_7F4A_7C15, shift: 56)
        var after = before
        after[12_345] ^= 0xFF
        let value = CheckpointValue.encode(highSeq: 9, state: after, base: (time: 5, seq: 3, state: before))
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.base == nil)
        #expect(parsed.state(after: []) == after)
    }

    @Test("a truncated, extended, altered or resized value does not restore")
    func damaged() throws {
        let state = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let value = CheckpointValue.encode(highSeq: 7, state: state, base: nil)
        let truncated = try #require(CheckpointValue(Array(value.dropLast(5))))
        #expect(truncated.state(after: []) == nil)
        let extended = try #require(CheckpointValue(value + [0]))
        #expect(extended.state(after: []) == nil)
        var wrongSize = value
        wrongSize[11] ^= 1
        let resized = try #require(CheckpointValue(wrongSize))
        #expect(resized.state(after: []) == nil)
        // A flipped bit in the state's bytes: the checksum no longer holds.
        var flipped = value
        flipped[value.count - 6] ^= 0x10
        let altered = try #require(CheckpointValue(flipped))
        #expect(altered.state(after: []) == nil)
        // A flipped bit in the checksum itself.
        var badChecksum = value
        badChecksum[CheckpointValue.headerSize + 2] ^= 0x01
        #expect(try #require(CheckpointValue(badChecksum)).state(after: []) == nil)
        #expect(CheckpointValue([1, 2, 3]) == nil)
    }

    @Test("runs copied from the state before are named, not stored, and the state is rebuilt only from that state")
    func copiedRuns() throws {
        let before = pseudoRandomBytes(30_000, seed: 11, shift: 56)
        // A changed head, two runs of the state before in a new place, new bytes between.
        var after = Array(before[0..<2_000])
        after[100] ^= 0xFF
        let first = StateCopy(at: after.count, from: 20_000, count: 9_000)
        after += before[20_000..<29_000]
        after += pseudoRandomBytes(500, seed: 3, shift: 60)
        let second = StateCopy(at: after.count, from: 5_000, count: 8_000)
        after += before[5_000..<13_000]
        after += [1, 2, 3]
        let base = (time: Int64(1), seq: UInt64(2), state: before)
        let value = CheckpointValue.encode(highSeq: 4, state: after, base: base, copies: [first, second])
        let whole = CheckpointValue.encode(highSeq: 4, state: after, base: base)
        // The runs are left out (named in a few bytes): the value holds the rest only.
        #expect(whole.count - value.count > 17_000 - 32)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.copies == [first, second] && parsed.size == after.count && parsed.base?.seq == 2)
        #expect(parsed.literals.count == after.count - 17_000)
        #expect(parsed.state(after: before) == after)
        #expect(try #require(CheckpointValue(whole)).state(after: []) == after)
        // Another state before, changed inside a copied run, or too short, is refused.
        for k in [22_000, 6_000] {
            var other = before
            other[k] ^= 1
            #expect(parsed.state(after: other) == nil)
        }
        #expect(parsed.state(after: Array(before.prefix(25_000))) == nil)
        #expect(parsed.state(after: []) == nil)
        // A value whose runs pass the state's end does not parse.
        var damaged = value
        damaged[11] = 0
        damaged[10] = 0
        #expect(CheckpointValue(damaged) == nil)
    }

    @Test("runs may copy overlapping bytes of the state before; a value standing alone that names runs is refused")
    func overlappingAndForgedRuns() throws {
        let before = pseudoRandomBytes(4_000, seed: 5, shift: 56)
        let after = Array(before[0..<1_000]) + Array(before[500..<1_500])
        let overlapping = [StateCopy(at: 0, from: 0, count: 1_000), StateCopy(at: 1_000, from: 500, count: 1_000)]
        let value = CheckpointValue.encode(
            highSeq: 1, state: after, base: (time: 1, seq: 1, state: before), copies: overlapping)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.literals.isEmpty)
        #expect(parsed.state(after: before) == after)
        // Without a base the runs are left out when written, and refused when read.
        let alone = CheckpointValue.encode(highSeq: 1, state: after, base: nil, copies: overlapping)
        #expect(try #require(CheckpointValue(alone)).copies.isEmpty)
        var forged = value
        for k in 12..<28 { forged[k] = 0 }
        #expect(CheckpointValue(forged) == nil)
    }
}

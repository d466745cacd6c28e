import Testing
@testable import Projections
import SmartStack

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

    func decompress(_ value: CheckpointValue, prefix: [UInt8] = []) throws -> [UInt8]? {
        try #require(StateDecompressor()).decompress(value.compressed, size: value.size, prefix: prefix)
    }
    @Test("a state compresses and decompresses to the same bytes, and is smaller for repetitive states")
    func roundTrip() throws {
        var state = [UInt8]()
        for i in 0..<4_000 { state.append(contentsOf: [UInt8(i % 7), 0, 0, 0, UInt8(i % 251), 1]) }
        let value = CheckpointValue.encode(highSeq: 42, state: state, base: nil)
        #expect(value.count < state.count / 2)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.highSeq == 42 && parsed.size == state.count && parsed.base == nil)
        #expect(try decompress(parsed) == state)
    }

    @Test("a state compressed after the one before is far smaller, and decompresses only after that one")
    func delta() throws {
        let before = pseudoRandomBytes(20_000, seed: 0x9E37_79B9_7F4A_7C15, shift: 56)
        var after = before
        after[12_345] ^= 0xFF
        let alone = CheckpointValue.encode(highSeq: 9, state: after, base: nil)
        let value = CheckpointValue.encode(highSeq: 9, state: after, base: (time: 5, seq: 3, state: before))
        #expect(value.count * 10 < alone.count)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.base?.time == 5 && parsed.base?.seq == 3)
        #expect(try decompress(parsed, prefix: before) == after)
        #expect(try decompress(parsed) == nil)
        // A prefix that differs where the frame copies from it gives other content, which
        // the frame's checksum refuses.
        var other = before
        other[1_000] ^= 1
        #expect(try decompress(parsed, prefix: other) == nil)
    }

    @Test("a truncated, extended, altered or resized value does not decompress")
    func damaged() throws {
        let state = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let value = CheckpointValue.encode(highSeq: 7, state: state, base: nil)
        let truncated = try #require(CheckpointValue(Array(value.dropLast(5))))
        #expect(try decompress(truncated) == nil)
        let extended = try #require(CheckpointValue(value + [0]))
        #expect(try decompress(extended) == nil)
        var wrongSize = value
        wrongSize[11] ^= 1
        let resized = try #require(CheckpointValue(wrongSize))
        #expect(try decompress(resized) == nil)
        // A flipped bit in the frame's last block: the content checksum no longer holds.
        var flipped = value
        flipped[value.count - 6] ^= 0x10
        let altered = try #require(CheckpointValue(flipped))
        #expect(try decompress(altered) == nil)
        #expect(CheckpointValue([1, 2, 3]) == nil)
    }

    @Test("one compressor and one decompressor reused across a series give the bytes of fresh ones each time")
    func reusedContexts() throws {
        var state = pseudoRandomBytes(9_000, seed: 7, shift: 61)
        let compressor = StateCompressor()
        let decompressor = try #require(StateDecompressor())
        var previous = [UInt8]()
        for round in 0..<6 {
            for k in stride(from: round * 97, to: state.count, by: 613) { state[k] &+= 1 }
            state.append(contentsOf: (0..<UInt8(round * 40)).map { $0 })
            let prefix = round % 3 == 0 ? [] : previous
            var reused: [UInt8] = [9, 9]
            compressor.compress(state, prefix: prefix, appendingTo: &reused)
            var fresh: [UInt8] = [9, 9]
            StateCompressor().compress(state, prefix: prefix, appendingTo: &fresh)
            #expect(reused == fresh)
            #expect(decompressor.decompress(reused[2...], size: state.count, prefix: prefix) == state)
            previous = state
        }
    }

    @Test("runs copied from the state before are named, not compressed, and the state is rebuilt only from that state")
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
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.copies == [first, second] && parsed.size == after.count && parsed.base?.seq == 2)
        let decompressor = try #require(StateDecompressor())
        #expect(parsed.state(after: before, decompressor: decompressor) == after)
        #expect(try #require(CheckpointValue(whole)).state(after: before, decompressor: decompressor) == after)
        // The copied runs are not in the frame: it decompresses to the rest only.
        #expect(try decompress(parsed, prefix: before) == nil)
        // Another state before, changed inside a copied run (which the frame does not
        // cover) or where the frame copies from, is refused.
        for k in [22_000, 1_000] {
            var other = before
            other[k] ^= 1
            #expect(parsed.state(after: other, decompressor: decompressor) == nil)
        }
        #expect(parsed.state(after: Array(before.prefix(25_000)), decompressor: decompressor) == nil)
        // A value whose runs pass the state's end does not parse.
        var damaged = value
        damaged[11] = 0
        damaged[10] = 0
        #expect(CheckpointValue(damaged) == nil)
    }

    @Test("copied runs that overlap in the state before, or a state standing alone that names runs, are refused")
    func malformedRuns() throws {
        let before = pseudoRandomBytes(4_000, seed: 5, shift: 56)
        let after = Array(before[0..<1_000]) + Array(before[500..<1_500])
        let overlapping = [StateCopy(at: 0, from: 0, count: 1_000), StateCopy(at: 1_000, from: 500, count: 1_000)]
        #expect(StatePatch.uncopied(before, by: overlapping) == nil)
        let value = CheckpointValue.encode(highSeq: 1, state: after, base: (time: 1, seq: 1, state: before), copies: overlapping)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.state(after: before, decompressor: try #require(StateDecompressor())) == nil)
        // Without a base the runs are left out when written, and refused when read.
        let alone = CheckpointValue.encode(highSeq: 1, state: after, base: nil, copies: overlapping)
        #expect(try #require(CheckpointValue(alone)).copies.isEmpty)
        var forged = value
        for k in 12..<28 { forged[k] = 0 }
        #expect(CheckpointValue(forged) == nil)
    }
}

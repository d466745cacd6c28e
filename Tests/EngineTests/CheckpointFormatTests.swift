import Testing
@testable import Projections

@Suite("Checkpoint values")
struct CheckpointFormatTests {
    @Test("a state compresses and decompresses to the same bytes, and is smaller for repetitive states")
    func roundTrip() throws {
        var state = [UInt8]()
        for i in 0..<4_000 { state.append(contentsOf: [UInt8(i % 7), 0, 0, 0, UInt8(i % 251), 1]) }
        let value = CheckpointValue.encode(highSeq: 42, state: state, base: nil)
        #expect(value.count < state.count / 2)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.highSeq == 42 && parsed.size == state.count && parsed.base == nil)
        #expect(StateCompression.decompress(parsed.compressed, size: parsed.size) == state)
    }

    @Test("a state compressed after the one before is far smaller, and decompresses only after that one")
    func delta() throws {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        let before = (0..<20_000).map { _ -> UInt8 in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> 56)
        }
        var after = before
        after[12_345] ^= 0xFF
        let alone = CheckpointValue.encode(highSeq: 9, state: after, base: nil)
        let value = CheckpointValue.encode(highSeq: 9, state: after, base: (time: 5, seq: 3, state: before))
        #expect(value.count * 10 < alone.count)
        let parsed = try #require(CheckpointValue(value))
        #expect(parsed.base?.time == 5 && parsed.base?.seq == 3)
        #expect(StateCompression.decompress(parsed.compressed, size: parsed.size, prefix: before) == after)
        #expect(StateCompression.decompress(parsed.compressed, size: parsed.size) == nil)
        // A prefix that differs where the frame copies from it gives other content, which
        // the frame's checksum refuses.
        var other = before
        other[1_000] ^= 1
        #expect(StateCompression.decompress(parsed.compressed, size: parsed.size, prefix: other) == nil)
    }

    @Test("a truncated, extended, altered or resized value does not decompress")
    func damaged() throws {
        let state = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let value = CheckpointValue.encode(highSeq: 7, state: state, base: nil)
        let truncated = try #require(CheckpointValue(Array(value.dropLast(5))))
        #expect(StateCompression.decompress(truncated.compressed, size: truncated.size) == nil)
        let extended = try #require(CheckpointValue(value + [0]))
        #expect(StateCompression.decompress(extended.compressed, size: extended.size) == nil)
        var wrongSize = value
        wrongSize[11] ^= 1
        let resized = try #require(CheckpointValue(wrongSize))
        #expect(StateCompression.decompress(resized.compressed, size: resized.size) == nil)
        // A flipped bit in the frame's last block: the content checksum no longer holds.
        var flipped = value
        flipped[value.count - 6] ^= 0x10
        let altered = try #require(CheckpointValue(flipped))
        #expect(StateCompression.decompress(altered.compressed, size: altered.size) == nil)
        #expect(CheckpointValue([1, 2, 3]) == nil)
    }

    @Test("one compressor and one decompressor reused across a series give the bytes of fresh ones each time")
    func reusedContexts() throws {
        var x: UInt64 = 7
        var state = (0..<9_000).map { _ -> UInt8 in
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: x >> 61)
        }
        let compressor = StateCompressor()
        let decompressor = try #require(StateDecompressor())
        var previous = [UInt8]()
        for round in 0..<6 {
            for k in stride(from: round * 97, to: state.count, by: 613) { state[k] &+= 1 }
            state.append(contentsOf: (0..<UInt8(round * 40)).map { $0 })
            let prefix = round % 3 == 0 ? [] : previous
            var reused: [UInt8] = [9, 9]
            compressor.compress(state, prefix: prefix, appendingTo: &reused)
            #expect(reused == [9, 9] + StateCompression.compress(state, prefix: prefix))
            #expect(decompressor.decompress(reused[2...], size: state.count, prefix: prefix) == state)
            previous = state
        }
    }
}

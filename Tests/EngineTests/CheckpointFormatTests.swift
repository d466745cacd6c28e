import Testing
@testable import Projections

@Suite("Checkpoint values")
struct CheckpointFormatTests {
    @Test("a state deflates and inflates to the same bytes, and is smaller for repetitive states")
    func roundTrip() throws {
        var state = [UInt8]()
        for i in 0..<4_000 { state.append(contentsOf: [UInt8(i % 7), 0, 0, 0, UInt8(i % 251), 1]) }
        let value = CheckpointKey.value(highSeq: 42, state: state)
        #expect(value.count < state.count / 2)
        let (high, deflated) = try #require(CheckpointKey.split(value))
        #expect(high == 42)
        #expect(CheckpointKey.inflate(deflated) == state)
    }

    @Test("a truncated or altered value does not inflate")
    func damaged() throws {
        let state = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let value = CheckpointKey.value(highSeq: 7, state: state)
        let truncated = Array(value.dropLast(5))
        #expect(CheckpointKey.split(truncated).flatMap { CheckpointKey.inflate($0.state) } == nil)
        var wrongSize = value
        wrongSize[11] ^= 1
        #expect(CheckpointKey.split(wrongSize).flatMap { CheckpointKey.inflate($0.state) } == nil)
        #expect(CheckpointKey.split([1, 2, 3]) == nil)
    }
}

import RecordFormat
import Testing

@testable import SmartStack

/// A checkpoint's bytes are checked by their checksum before a restore reads them; a
/// restore given damaged bytes still ends in an error or a state, never in a trap.
@Suite("Restoring damaged checkpoint bytes")
struct CheckpointDamageTests {
    /// An engine after 250 generated events of one device, with usage records, and its state.
    static func engineAndState() -> (engine: DeviceEngine, state: [UInt8]) {
        let events = UsageDaysTests.deviceZeroEvents(generating: 750, devices: 1, seed: 11)
        var engine = DeviceEngine(device: events[0].envelope.device, policy: Policy())
        for (k, event) in events.prefix(250).enumerated() { engine.apply(event, seq: UInt64(k + 1)) }
        return (engine, engine.checkpoint())
    }

    @Test("a state with any one byte damaged is refused as malformed or restores; none traps")
    func everyByteDamaged() throws {
        let (engine, bytes) = Self.engineAndState()
        #expect(try DeviceEngine(checkpoint: bytes, policy: Policy()).checkpoint() == bytes)
        #expect(engine.state.usage.contains { !$0.isEmpty })
        var refused = 0
        var restored = 0
        for position in bytes.indices {
            // A varint's continuation bit set or cleared, and its lowest bit.
            for damage: UInt8 in [0x80, 0x01] {
                var damaged = bytes
                damaged[position] ^= damage
                // Refused as malformed, or restored; any other error fails the test.
                do {
                    _ = try DeviceEngine(checkpoint: damaged, policy: Policy())
                    restored += 1
                } catch is StateReader.Malformed {
                    refused += 1
                }
            }
        }
        // Both outcomes occur: the test does not pass by refusing everything.
        #expect(refused > 0 && restored > 0)
    }

    @Test("a state cut short anywhere, within a string or a section too, is refused as malformed")
    func everyPrefixRefused() throws {
        let bytes = Self.engineAndState().state
        for end in 0..<bytes.count {
            #expect(throws: StateReader.Malformed.self) {
                _ = try DeviceEngine(checkpoint: Array(bytes[..<end]), policy: Policy())
            }
        }
    }
}

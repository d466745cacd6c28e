import Ledger
import StackLedgerTesting
import Testing

@Suite("CRC-32C")
struct CRC32CTests {
    @Test("the standard check value: CRC-32C of \"123456789\" is 0xE3069283")
    func checkValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(Array("123456789".utf8).withUnsafeBytes { CRC32C.software(0, $0) } == 0xE306_9283)
    }

    @Test("hardware and software agree on every length and alignment, short and long, and when continued")
    func agree() {
        var rng = SplitMix64(seed: 5)
        let data = (0..<40000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        data.withUnsafeBytes { raw in
            for start in 0..<9 {
                // Both sides of the length where long buffers change method, and a state's size.
                for length in [0, 1, 7, 8, 9, 63, 64, 100, 383, 384, 385, 1000, 4096, 34_567] {
                    let slice = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
                    #expect(CRC32C.update(0, slice) == CRC32C.software(0, slice))
                    let half = length / 2
                    let continued = CRC32C.update(
                        CRC32C.update(0, UnsafeRawBufferPointer(rebasing: slice[0..<half])),
                        UnsafeRawBufferPointer(rebasing: slice[half...]))
                    #expect(continued == CRC32C.software(0, slice))
                }
            }
        }
    }
}

import Testing

@testable import Ledger

/// The chain's digests, fed through a buffer.
@Suite("Staged digest")
struct StagedDigestTests {
    static func hex<S: Sequence<UInt8>>(_ bytes: S) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("the digest is SHA-256 of the inputs in order, whatever their sizes and the buffer's")
    func digestOfInputsInOrder() {
        // FIPS 180-2's second example, cut into pieces of every size from 1 to 40 bytes,
        // with an empty input between pieces.
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let expected = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        for capacity in [1, 7, 16, 64, 1 << 16] {
            for piece in 1...40 {
                let digest = StagedDigest(capacity: capacity)
                for at in stride(from: 0, to: message.count, by: piece) {
                    message[at..<min(message.count, at + piece)].withUnsafeBytes { digest.add($0) }
                    message[at..<at].withUnsafeBytes { digest.add($0) }
                }
                #expect(Self.hex(digest.finalize()) == expected, "capacity \(capacity), pieces of \(piece)")
            }
        }
    }
}

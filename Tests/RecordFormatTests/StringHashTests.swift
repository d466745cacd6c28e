import Testing

@testable import RecordFormat

@Suite("String hashing")
struct StringHashTests {
    /// Texts on both sides of the inline limit (15 bytes), ASCII and not.
    static let texts: [String] = (0..<40).flatMap { i in
        [
            "k\(i)", "com.example.app\(i)", "com.example.application.number-\(i)", "é\(i)",
            "widget-é-\(i)-long-enough-to-allocate",
        ]
    }

    @Test("a string hashes the same whatever its storage: inline, allocated or bridged from bytes")
    func hashDependsOnTextOnly() {
        for text in Self.texts {
            var grown = String()
            grown.reserveCapacity(64)
            grown.append(text)
            let bytes = Array(text.utf8)
            let expected = bytes.withUnsafeBytes { StringHash.of($0) }
            #expect(StringHash.of(text) == expected)
            #expect(StringHash.of(grown) == expected)
            #expect(StringHash.of(String(decoding: bytes, as: UTF8.self)) == expected)
        }
    }

    @Test("texts that differ hash apart")
    func distinctTextsDistinctHashes() {
        let hashes = Set(Self.texts.map(StringHash.of))
        #expect(hashes.count == Self.texts.count)
    }
}

import Testing
@testable import Ledger

@Suite("String hashing and permanent strings")
struct StringHashTests {
    /// Texts on both sides of the inline limit (15 bytes), ASCII and not.
    static let texts: [String] = (0..<40).flatMap { i in
        ["k\(i)", "com.example.app\(i)", "com.example.application.number-\(i)", "é\(i)", "widget-é-\(i)-long-enough-to-allocate"]
    }

    @Test("a string hashes the same whatever its storage: inline, allocated or permanent")
    func hashDependsOnTextOnly() {
        for text in Self.texts {
            var grown = String()
            grown.reserveCapacity(64)
            grown.append(text)
            let bytes = Array(text.utf8)
            let expected = bytes.withUnsafeBytes { StringHash.of($0) }
            #expect(StringHash.of(text) == expected)
            #expect(StringHash.of(grown) == expected)
            #expect(StringHash.of(PermanentString.make(text)) == expected)
        }
    }

    @Test("texts that differ hash apart")
    func distinctTextsDistinctHashes() {
        let hashes = Set(Self.texts.map(StringHash.of))
        #expect(hashes.count == Self.texts.count)
    }

    @Test("a permanent string reads, compares and hashes as its text, and needs no reference counting")
    func permanentStringIsItsText() throws {
        try #require(PermanentString.isSupported)
        for text in Self.texts {
            let copy = String(decoding: Array(text.utf8), as: UTF8.self)
            let permanent = PermanentString.make(copy)
            #expect(permanent == text)
            #expect(permanent.utf8.count == text.utf8.count)
            #expect(Array(permanent.utf8) == Array(text.utf8))
            #expect(permanent.hashValue == text.hashValue)
            #expect(permanent + "!" == text + "!")
            #expect(PermanentString.isFree(permanent))
            // Long texts get storage of their own; short ones stay inline.
            #expect(PermanentString.isFree(copy) == (text.utf8.count <= 15))
        }
    }
}

import Testing

@testable import SmartStack

@Suite("Interned strings of a checkpoint")
struct InternedStringsTests {
    @Test("the same text gets one index whether it comes as the same value, a copy or a new string")
    func sameTextOneIndex() {
        var table = InternedStrings()
        var reference = [String: Int]()
        var seed: UInt64 = 42
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        // Short texts are stored inline, long ones in storage of their own.
        let texts = (0..<40).map { i in i % 2 == 0 ? "k\(i)" : "com.example.application.number-\(i)" }
        let shared = texts.map { String($0) }
        for _ in 0..<5_000 {
            let k = Int(next() % UInt64(texts.count))
            // Either a value passed around many times, or a fresh string made and dropped.
            let s = next() % 2 == 0 ? shared[k] : String(decoding: Array(texts[k].utf8), as: UTF8.self)
            let expected = reference[s]
            if expected == nil { reference[s] = reference.count }
            #expect(table.insert(s) == expected)
        }
        #expect(reference.count == texts.count)
    }

    @Test("strings keep their indices when the few looked for one by one become many in tables")
    func fewThenMany() {
        var table = InternedStrings()
        let texts = (0..<(InternedStrings.linearLimit + 4)).map { "name-\($0)-of-a-longer-string" }
        for (i, text) in texts.enumerated() {
            #expect(table.insert(text) == nil)
            // Every earlier one, as the same value and as a new string of the same text.
            for j in 0...i {
                #expect(table.insert(texts[j]) == j)
                #expect(table.insert(String(decoding: Array(texts[j].utf8), as: UTF8.self)) == j)
            }
        }
    }
}

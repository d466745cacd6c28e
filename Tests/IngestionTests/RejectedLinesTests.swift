import Testing

@testable import Ingestion

@Suite("Rejected lines")
struct RejectedLinesTests {
    @Test("a line is rejected in its own input only; unions keep both sides")
    func membership() {
        var a = RejectedLines()
        for line in [1, 63, 64, 65, 1_000_003] { a.insert(input: 0, line: line) }
        a.insert(input: 2, line: 7)
        for line in [1, 63, 64, 65, 1_000_003] { #expect(a.contains(input: 0, line: line)) }
        for line in [0, 2, 62, 66, 1_000_002, 1_000_004, 50_000_000] { #expect(!a.contains(input: 0, line: line)) }
        #expect(a.contains(input: 2, line: 7) && !a.contains(input: 1, line: 7) && !a.contains(input: 2, line: 1))
        var b = RejectedLines()
        b.insert(input: 0, line: 2)
        b.insert(input: 1, line: 7)
        b.formUnion(a)
        for line in [1, 2, 63, 64, 65, 1_000_003] { #expect(b.contains(input: 0, line: line)) }
        #expect(b.contains(input: 1, line: 7) && b.contains(input: 2, line: 7) && !b.contains(input: 0, line: 3))
    }
}

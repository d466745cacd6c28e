import StackLedgerTesting
import Testing

@testable import SmartStack

/// The unordered table finds what a dictionary finds, through insertions that grow it,
/// overwrites, removals and filtering.
@Suite("Unordered table")
struct UnorderedTableTests {
    @Test("it holds what a dictionary holds, through 5,000 random operations")
    func matchesDictionary() {
        var table = UnorderedTable<Int>()
        var reference = [String: Int]()
        var rng = SplitMix64(seed: 7)
        for step in 0..<5_000 {
            let key = "instance-\(rng.next() % 700)"
            switch rng.next() % 10 {
            case 0:
                table[key] = nil
                reference[key] = nil
            case 1 where step % 500 == 0:
                table.removeAll { $0 % 3 == 0 }
                reference = reference.filter { $0.value % 3 != 0 }
            default:
                table[key] = step
                reference[key] = step
            }
            #expect(table.count == reference.count)
        }
        for k in 0..<700 { #expect(table["instance-\(k)"] == reference["instance-\(k)"]) }
        table.removeAll()
        #expect(table.count == 0 && table["instance-1"] == nil)
    }
}

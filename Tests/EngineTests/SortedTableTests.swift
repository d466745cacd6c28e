import StackLedgerTesting
import Testing

@testable import SmartStack

@Suite("Sorted tables")
struct SortedTableTests {
    @Test("random sets, updates and removals give a dictionary's answers, iterated in key order")
    func behavesLikeADictionary() {
        var table = SortedTable<Int>()
        var reference = [String: Int]()
        var rng = SplitMix64(seed: 7)
        func next() -> UInt64 { rng.next() }
        let keys = (0..<60).map { i in i % 3 == 0 ? "k\(i)" : "com.example.application.kind-\(i)" }
        for step in 0..<20_000 {
            let key = keys[Int(next() % UInt64(keys.count))]
            switch next() % 5 {
            case 0:
                table[key] = nil
                reference[key] = nil
            case 1 where step % 500 == 0:
                table.removeAll()
                reference.removeAll()
            case 2:
                table.removeAll { $0 % 7 == 0 }
                reference = reference.filter { $0.value % 7 != 0 }
            default:
                let v = Int(next() % 1000)
                table[key] = v
                reference[key] = v
            }
            #expect(table[key] == reference[key])
        }
        #expect(table.count == reference.count)
        #expect(table.keys == reference.keys.sorted())
        for (k, v) in table.entries { #expect(reference[k] == v) }
        for k in keys { #expect(table[k] == reference[k]) }
    }

    @Test("a table filled one key at a time finds every key, and equals the same table built at once")
    func fillsOneKeyAtATime() {
        var table = SortedTable<Int>()
        var rng = SplitMix64(seed: 11)
        var keys = (0..<5_000).map { "member-\($0)" }
        for i in keys.indices.reversed() { keys.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        for (n, key) in keys.enumerated() {
            table[key] = n
            if n % 499 == 0 { #expect(keys[...n].allSatisfy { table[$0] != nil }) }
        }
        #expect(keys.enumerated().allSatisfy { table[$0.element] == $0.offset })
        #expect(table["member-5000"] == nil)
        let sorted = keys.enumerated().sorted { $0.element < $1.element }
        let built = SortedTable(ascendingKeys: sorted.map(\.element), values: sorted.map(\.offset))
        #expect(table == built)
        #expect(table.hashValue == built.hashValue)
    }

    @Test("a key given in two parts finds what the joined key finds, and nothing else")
    func findsAKeyInTwoParts() {
        var table = SortedTable<Int>()
        #expect(table.value("com.example.a", 0x1F, "sleep") == nil)
        let parts = [
            ("com.example.a", "sleep"), ("com.example.a", "locationForWidgets"), ("com.example.bb", "sleep"), ("", ""),
            ("é", "x"),
        ]
        for (k, (a, b)) in parts.enumerated() { table[a + "\u{1F}" + b] = k }
        for (k, (a, b)) in parts.enumerated() { #expect(table.value(a, 0x1F, b) == k) }
        #expect(table.value("com.example.a", 0x2F, "sleep") == nil)
        #expect(table.value("com.example.", 0x1F, "asleep") == nil)
        #expect(table.value("com.example.a\u{1F}sleep", 0x1F, "") == nil)
    }

    @Test("tables with the same entries are equal however they were built")
    func equalityIgnoresHistory() {
        var a = SortedTable<Int>()
        var b = SortedTable<Int>()
        for (i, k) in ["x", "b", "a", "m"].enumerated() { a[k] = i }
        for (k, i) in [("m", 3), ("a", 2), ("zz", 9), ("b", 1), ("x", 0)] { b[k] = i }
        b["zz"] = nil
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}

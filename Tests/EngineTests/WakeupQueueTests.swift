import StackLedgerTesting
import Testing

@testable import SmartStack

@Suite("Wakeup queue")
struct WakeupQueueTests {
    @Test("random inserts, merges and removals keep the instants unique, in order, with their bits joined")
    func behavesLikeASortedMap() {
        var queue = WakeupQueue()
        var reference = [Int64: UInt8]()
        var rng = SplitMix64(seed: 99)
        func next() -> UInt64 { rng.next() }
        var now: Int64 = 0
        for _ in 0..<20_000 {
            switch next() % 4 {
            case 0:
                let t = now + Int64(next() % 500)
                let bits = UInt8(1 + next() % 3)
                queue.insert(t, bits)
                reference[t, default: 0] |= bits
            case 1:
                // Ascending and unique, some before, among and after the queued instants.
                let times = Array(Set((0..<Int(1 + next() % 12)).map { _ in now + Int64(next() % 700) })).sorted()
                let bits = UInt8(1 + next() % 3)
                queue.merge(ascending: times[...], bits)
                for t in times { reference[t, default: 0] |= bits }
            default:
                if let first = reference.keys.min() {
                    let taken = queue.removeFirst()
                    #expect(taken.time == first && taken.work == reference[first])
                    reference[first] = nil
                    now = first
                }
            }
            #expect(queue.count == reference.count)
            #expect(queue.first == reference.keys.min())
        }
        #expect(Array(queue.ascendingTimes) == reference.keys.sorted())
        #expect(Array(queue.ascendingWork) == reference.keys.sorted().map { reference[$0]! })
    }
}

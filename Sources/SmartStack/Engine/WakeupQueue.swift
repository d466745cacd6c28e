/// The instants at which transitions are scheduled, each with the `Work` bits to evaluate
/// then, unique. Kept latest first, so that taking the earliest costs nothing however
/// many are waiting; checkpoints hold them earliest first.
struct WakeupQueue: Hashable {
    /// An instant and the `Work` bits to evaluate then.
    struct Wakeup: Hashable {
        var time: Int64
        var work: UInt8
    }

    /// Descending by time.
    private var items: [Wakeup] = []

    init() {}

    /// Restores a queue from its instants and bits, earliest first.
    init(ascending times: [Int64], work: [UInt8]) {
        items = zip(times, work).reversed().map { Wakeup(time: $0, work: $1) }
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    /// The earliest instant.
    var first: Int64? { items.last?.time }
    /// The instants, earliest first.
    var ascendingTimes: LazyMapSequence<ReversedCollection<[Wakeup]>, Int64> { items.reversed().lazy.map(\.time) }
    /// Their bits, in the same order.
    var ascendingWork: LazyMapSequence<ReversedCollection<[Wakeup]>, UInt8> { items.reversed().lazy.map(\.work) }

    /// Takes the earliest instant and its bits.
    mutating func removeFirst() -> (time: Int64, work: UInt8) {
        let w = items.removeLast()
        return (w.time, w.work)
    }

    /// Adds `bits` at `t`, joining an instant already there.
    mutating func insert(_ t: Int64, _ bits: UInt8) {
        // The first position (in descending order) whose time is <= t.
        let lo = items.partitionPoint { $0.time > t }
        if lo < items.count && items[lo].time == t {
            items[lo].work |= bits
            return
        }
        items.insert(Wakeup(time: t, work: bits), at: lo)
    }

    /// Adds `bits` at each of `fresh` (ascending, unique) in one pass: merged from the
    /// front of the descending array, which is its far end in time, in place.
    mutating func merge(ascending fresh: ArraySlice<Int64>, _ bits: UInt8) {
        guard !fresh.isEmpty else { return }
        let old = items.count
        let n = fresh.count
        items.append(contentsOf: repeatElement(Wakeup(time: 0, work: 0), count: n))
        var added = 0
        let first = fresh.startIndex
        items.withUnsafeMutableBufferPointer { w in
            // Descending order: write from the back (earliest) forwards. `i` reads the old
            // instants from their earliest, `j` the fresh ones from their earliest, `k`
            // writes; an instant in both keeps one slot with both bits.
            var i = old - 1
            var j = 0
            var k = old + n - 1
            while j < n {
                let t = fresh[first + j]
                if i >= 0 && w[i].time < t {
                    w[k] = w[i]
                    i -= 1
                } else if i >= 0 && w[i].time == t {
                    w[k] = Wakeup(time: t, work: w[i].work | bits)
                    i -= 1
                    j += 1
                } else {
                    w[k] = Wakeup(time: t, work: bits)
                    added += 1
                    j += 1
                }
                k -= 1
            }
            // Instants already there left gaps between the untouched latest ones (0...i)
            // and the merged part: close them.
            let gap = k - i
            if gap > 0 {
                for m in (k + 1)..<(old + n) { w[m - gap] = w[m] }
            }
        }
        items.removeLast(n - added)
    }
}

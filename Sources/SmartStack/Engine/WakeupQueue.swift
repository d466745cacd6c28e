/// The instants at which transitions are scheduled, each with the `Work` bits to evaluate
/// then, unique. Kept latest first, so that taking the earliest costs nothing however
/// many are waiting; checkpoints hold them earliest first.
struct WakeupQueue: Codable, Hashable {
    /// Descending.
    private var times: [Int64] = []
    private var work: [UInt8] = []

    init() {}

    /// Restores a queue from its instants and bits, earliest first.
    init(ascending times: [Int64], work: [UInt8]) {
        self.times = times.reversed()
        self.work = work.reversed()
    }

    var isEmpty: Bool { times.isEmpty }
    var count: Int { times.count }
    /// The earliest instant.
    var first: Int64? { times.last }
    /// The instants, earliest first.
    var ascendingTimes: ReversedCollection<[Int64]> { times.reversed() }
    /// Their bits, in the same order.
    var ascendingWork: ReversedCollection<[UInt8]> { work.reversed() }

    /// Takes the earliest instant and its bits.
    mutating func removeFirst() -> (time: Int64, work: UInt8) {
        (times.removeLast(), work.removeLast())
    }

    /// Adds `bits` at `t`, joining an instant already there.
    mutating func insert(_ t: Int64, _ bits: UInt8) {
        // The first position (in descending order) whose time is <= t.
        let lo = times.partitionPoint { $0 > t }
        if lo < times.count && times[lo] == t {
            work[lo] |= bits
            return
        }
        times.insert(t, at: lo)
        work.insert(bits, at: lo)
    }

    /// Adds `bits` at each of `fresh` (ascending, unique) in one pass: merged from the
    /// front of the descending arrays, which is their far end in time, in place.
    mutating func merge(ascending fresh: ArraySlice<Int64>, _ bits: UInt8) {
        guard !fresh.isEmpty else { return }
        let old = times.count, n = fresh.count
        times.append(contentsOf: repeatElement(0, count: n))
        work.append(contentsOf: repeatElement(0, count: n))
        var added = 0
        let first = fresh.startIndex
        times.withUnsafeMutableBufferPointer { times in
            work.withUnsafeMutableBufferPointer { w in
                // Descending order: write from the back (earliest) forwards. `i` reads the
                // old instants from their earliest, `j` the fresh ones from their earliest,
                // `k` writes; an instant in both keeps one slot with both bits.
                var i = old - 1, j = 0, k = old + n - 1
                while j < n {
                    let t = fresh[first + j]
                    if i >= 0 && times[i] < t {
                        (times[k], w[k]) = (times[i], w[i])
                        i -= 1
                    } else if i >= 0 && times[i] == t {
                        (times[k], w[k]) = (times[i], w[i] | bits)
                        i -= 1
                        j += 1
                    } else {
                        (times[k], w[k]) = (t, bits)
                        added += 1
                        j += 1
                    }
                    k -= 1
                }
                // Instants already there left gaps between the untouched latest ones
                // (0...i) and the merged part: close them.
                let gap = k - i
                if gap > 0 {
                    for m in (k + 1)..<(old + n) { (times[m - gap], w[m - gap]) = (times[m], w[m]) }
                }
            }
        }
        times.removeLast(n - added)
        work.removeLast(n - added)
    }
}

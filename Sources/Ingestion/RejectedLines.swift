/// The lines of each input that `--skip-invalid` leaves out, one bit per line up to the
/// last rejected one: 12 million rejected lines take 1.5 MB, not a set entry each.
struct RejectedLines: Sendable {
    private var bits: [Int: [UInt64]] = [:]

    /// Marks `line` (1-based) of input `input`.
    mutating func insert(input: Int, line: Int) {
        let word = line >> 6
        var words = bits.removeValue(forKey: input) ?? []
        words.grow(to: word + 1)
        words[word] |= 1 << UInt64(line & 63)
        bits[input] = words
    }

    /// Whether `line` of input `input` was rejected.
    func contains(input: Int, line: Int) -> Bool {
        guard let words = bits[input], line >> 6 < words.count else { return false }
        return words[line >> 6] & (1 << UInt64(line & 63)) != 0
    }

    /// Adds every line of `other`.
    mutating func formUnion(_ other: RejectedLines) {
        for (input, words) in other.bits {
            var mine = bits[input] ?? []
            mine.grow(to: words.count)
            for (k, w) in words.enumerated() { mine[k] |= w }
            bits[input] = mine
        }
    }
}

extension Array where Element == UInt64 {
    /// Appends zero words until the array holds `count`.
    fileprivate mutating func grow(to count: Int) {
        if self.count < count { append(contentsOf: repeatElement(0, count: count - self.count)) }
    }
}

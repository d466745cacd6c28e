extension RandomAccessCollection {
    /// The first index whose element is not `before` (binary search: the elements for
    /// which `before` holds must all come first), `endIndex` when there is none.
    @inlinable
    func partitionPoint(_ before: (Element) -> Bool) -> Index {
        var lo = startIndex
        var n = count
        while n > 0 {
            let half = n / 2
            let mid = index(lo, offsetBy: half)
            if before(self[mid]) {
                lo = index(after: mid)
                n -= half + 1
            } else {
                n = half
            }
        }
        return lo
    }
}

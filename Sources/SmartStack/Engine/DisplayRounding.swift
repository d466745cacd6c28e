extension Double {
    /// The value to 4 decimals, as answers print normalised scores and ranks. Ranking
    /// compares the exact values: two that print alike may still rank apart.
    public var roundedForDisplay: Double { (self * 10_000).rounded() / 10_000 }
}

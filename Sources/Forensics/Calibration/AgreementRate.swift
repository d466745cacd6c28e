/// How many judged records the model agrees with, and the 95 % Wilson score interval of
/// the share: honest at the few records a device often holds, where the normal
/// approximation would run past 0 or 1.
package struct AgreementRate: Equatable, Sendable {
    /// Records the model agrees with.
    package var agrees: Int
    /// Records judged (agreeing or disagreeing).
    package var judged: Int

    package init(agrees: Int, judged: Int) {
        self.agrees = agrees
        self.judged = judged
    }

    /// The share agreeing; nil when nothing was judged.
    package var share: Double? { judged == 0 ? nil : Double(agrees) / Double(judged) }

    /// z for a two-sided 95 % interval.
    static let z = 1.959963984540054

    /// The Wilson score interval of the share at 95 %; nil when nothing was judged.
    package var interval: (low: Double, high: Double)? {
        guard judged > 0 else { return nil }
        let n = Double(judged)
        let p = Double(agrees) / n
        let z2 = Self.z * Self.z
        let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = Self.z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return (max(0, centre - half), min(1, centre + half))
    }

    /// `12/15 (80 %, 95 % CI 55-93 %)`, or `no records judged`.
    package var text: String {
        guard let share, let interval else { return "no records judged" }
        return
            "\(agrees)/\(judged) (\(Self.percent(share)) %, 95 % CI \(Self.percent(interval.low))-\(Self.percent(interval.high)) %)"
    }

    static func percent(_ x: Double) -> String { String(Int((x * 100).rounded())) }
}

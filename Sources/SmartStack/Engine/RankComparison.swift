/// How ranks compare (docs/queries.md, "Ties and changes of top"): two ranks within
/// `tolerance` of each other are equal, since normalised scores computed from different
/// magnitudes differ in their last bits and magnitudes must never decide (R2).
enum RankOrder {
    /// The largest difference between two ranks that still counts as a tie.
    static let tolerance = 1e-9

    /// Whether `a` ranks strictly above `b`: by more than `tolerance`.
    @inline(__always)
    static func isAbove(_ a: Double, _ b: Double) -> Bool { a - b > tolerance }

    /// Whether `a` and `b` are equal ranks within `tolerance`.
    @inline(__always)
    static func isTied(_ a: Double, _ b: Double) -> Bool { !isAbove(a, b) && !isAbove(b, a) }
}

/// One side of a comparison between widgets: what ranks it and on what.
struct RankSide {
    var widget: WidgetIdentity
    var rank: Double
    /// Whether the rank is a timeline entry's normalised score.
    var fromRelevance: Bool
    /// The policy parameters that set the rank on the common scale.
    var parameters: [String]

    init(_ c: Candidate) {
        widget = c.widget
        rank = c.rank
        switch c.signal {
        case .relevance: (fromRelevance, parameters) = (true, ["normalizationWindowDays"])
        case .pattern: (fromRelevance, parameters) = (false, ["usagePatternRank"])
        case .shortcut: (fromRelevance, parameters) = (false, ["relevantShortcutRank"])
        case .context(let clue, _, _, _, _):
            fromRelevance = false
            if case .window(_, _, let kind?) = clue, kind == "scheduled" || kind == "informational" {
                parameters = ["contextRank", "dateKindRankAdjustment"]
            } else {
                parameters = ["contextRank"]
            }
        }
    }

    init(_ s: ShownSuggestion) {
        widget = s.widget
        rank = s.rank
        fromRelevance = false
        switch s.source.prefix(while: { $0 != ":" }) {
        case "shortcut": parameters = ["relevantShortcutRank"]
        case "pattern": parameters = ["usagePatternRank"]
        default: parameters = ["contextRank", "dateKindRankAdjustment"]
        }
    }

    /// What a comparison of `self` with `others` rests on: rule R2 alone when every side is
    /// a score of the same provider (one app's kind), else the policy that puts different
    /// signals and providers on one scale.
    func basis(against others: [RankSide]) -> (basis: ReasonBasis, rule: String, parameters: [String]) {
        if fromRelevance
            && others.allSatisfy({ $0.fromRelevance && $0.widget.app == widget.app && $0.widget.kind == widget.kind })
        {
            return (.documented, "R2", [])
        }
        var all = parameters
        for o in others { for p in o.parameters where !all.contains(p) { all.append(p) } }
        return (.policy, all[0], all)
    }
}

/// A value of a policy parameter as calibration tries it: a number, a switch, or none
/// (an unlimited cap).
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// A count, a duration or a rank.
    case number(Double)
    /// A switch.
    case flag(Bool)
    /// No cap (a cap's `null`).
    case unlimited

    /// The value as the policy's JSON writes it: `2`, `0.8`, `true`, `null`.
    public var description: String {
        switch self {
        case .number(let d): return d == d.rounded() ? String(Int(d)) : String(d)
        case .flag(let b): return String(b)
        case .unlimited: return "null"
        }
    }
}

/// A parameter that Apple leaves undocumented, with the values calibration may try for it:
/// from `lowest` to `highest` by `step` (and `unlimited`, for a cap), or both settings of
/// a switch. A documented rule has no range: it is never fitted.
public struct CalibrationRange: Sendable {
    /// The parameter's name, as in the policy's JSON.
    public let name: String
    /// The values tried, in order.
    public let values: [ParameterValue]
    /// For a number, the distance between two neighbouring values (nil for a switch).
    public let step: Double?
    /// What the default rests on (docs/smart-stack-model.md, section 11).
    public let basis: String
    private let read: @Sendable (PolicyParameters) -> ParameterValue
    private let write: @Sendable (inout PolicyParameters, ParameterValue) -> Void

    /// The parameter's value in `parameters`.
    public func value(in parameters: PolicyParameters) -> ParameterValue { read(parameters) }

    /// `parameters` with this parameter set to `value`.
    public func setting(_ value: ParameterValue, in parameters: PolicyParameters) -> PolicyParameters {
        var p = parameters
        write(&p, value)
        return p
    }

    /// How many steps apart two values are (a switch: 0 or 1; `unlimited` is one step past the highest).
    public func steps(from a: ParameterValue, to b: ParameterValue) -> Int {
        guard let i = values.firstIndex(of: a), let j = values.firstIndex(of: b) else { return Int.max }
        return abs(i - j)
    }

    static func whole(
        _ name: String, _ path: WritableKeyPath<PolicyParameters, Int> & Sendable, _ range: ClosedRange<Int>,
        step: Int, basis: String = "UNKNOWN"
    ) -> CalibrationRange {
        CalibrationRange(
            name: name,
            values: stride(from: range.lowerBound, through: range.upperBound, by: step).map {
                .number(Double($0))
            }, step: Double(step), basis: basis,
            read: { .number(Double($0[keyPath: path])) },
            write: { p, v in if case .number(let d) = v { p[keyPath: path] = Int(d) } })
    }

    static func cap(
        _ name: String, _ path: WritableKeyPath<PolicyParameters, Int?> & Sendable, _ range: ClosedRange<Int>,
        basis: String = "UNKNOWN"
    ) -> CalibrationRange {
        CalibrationRange(
            name: name, values: range.map { .number(Double($0)) } + [.unlimited], step: 1, basis: basis,
            read: { $0[keyPath: path].map { .number(Double($0)) } ?? .unlimited },
            write: { p, v in
                switch v {
                case .number(let d): p[keyPath: path] = Int(d)
                default: p[keyPath: path] = nil
                }
            })
    }

    static func fraction(
        _ name: String, _ path: WritableKeyPath<PolicyParameters, Double> & Sendable, _ range: ClosedRange<Int>,
        hundredths step: Int, basis: String = "UNKNOWN"
    ) -> CalibrationRange {
        CalibrationRange(
            name: name,
            values: stride(from: range.lowerBound, through: range.upperBound, by: step).map {
                .number(Double($0) / 100)
            }, step: Double(step) / 100, basis: basis,
            read: { .number($0[keyPath: path]) },
            write: { p, v in if case .number(let d) = v { p[keyPath: path] = d } })
    }

    static func flag(
        _ name: String, _ path: WritableKeyPath<PolicyParameters, Bool> & Sendable, basis: String = "UNKNOWN"
    ) -> CalibrationRange {
        CalibrationRange(
            name: name, values: [.flag(false), .flag(true)], step: nil, basis: basis,
            read: { .flag($0[keyPath: path]) },
            write: { p, v in if case .flag(let b) = v { p[keyPath: path] = b } })
    }
}

extension PolicyParameters {
    /// The parameters calibration may fit, each with the values it tries, beside the
    /// defaults above: every one is a choice Apple leaves undocumented. The documented
    /// rules (and the parameters that stand for documented figures: `maxWidgetsPerStack`,
    /// `maxSuggestionsPerStack`, `maxRelevanceCardsPerStack`, `reloadBudgetPerDay`) and the
    /// choices between documentation versions are never fitted.
    public static let calibrationRanges: [CalibrationRange] = [
        .cap("rotationCapPerWidgetPerDay", \.rotationCapPerWidgetPerDay, 1...8),
        .whole("scrollHoldMinutes", \.scrollHoldMinutes, 0...180, step: 15),
        .whole("usagePatternMinimum", \.usagePatternMinimum, 1...8, step: 1),
        .whole("usagePatternWindowDays", \.usagePatternWindowDays, 7...28, step: 7),
        .flag("topStaysUntilDisplaced", \.topStaysUntilDisplaced),
        .cap("suggestionCapPerWidgetPerDay", \.suggestionCapPerWidgetPerDay, 1...4),
        .whole("normalizationWindowDays", \.normalizationWindowDays, 1...14, step: 1),
        .fraction("relevantShortcutRank", \.relevantShortcutRank, 10...100, hundredths: 10),
        .fraction("usagePatternRank", \.usagePatternRank, 10...100, hundredths: 10),
        .fraction("contextRank", \.contextRank, 10...100, hundredths: 10),
        .fraction("dateKindRankAdjustment", \.dateKindRankAdjustment, 0...30, hundredths: 5),
        .whole("dateClueLeadMinutes", \.dateClueLeadMinutes, 0...90, step: 15),
        .whole("dateClueLagMinutes", \.dateClueLagMinutes, 0...60, step: 15),
        .whole("dismissCooldownHours", \.dismissCooldownHours, 0...72, step: 12),
        .flag("relevantShortcutsRotateMembers", \.relevantShortcutsRotateMembers),
        .flag("usageCountsAppForeground", \.usageCountsAppForeground),
        .flag("unsetWidgetParameterMatchesAny", \.unsetWidgetParameterMatchesAny),
    ]

    /// The parameters `stackledger calibrate` fits when none are named: those that decide
    /// when Smart Rotate moves a stack, which the device's rotations and tops record.
    public static let calibratedByDefault = [
        "rotationCapPerWidgetPerDay", "scrollHoldMinutes", "usagePatternMinimum", "usagePatternWindowDays",
        "topStaysUntilDisplaced",
    ]
}

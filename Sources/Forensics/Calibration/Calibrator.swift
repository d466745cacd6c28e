import Dispatch
package import Ledger
import Projections
import RecordFormat
package import SmartStack
import Synchronization

/// Fits the policy's undocumented parameters to a device's own records: searches each
/// parameter's declared values (`PolicyParameters.calibrationRanges`) for those under
/// which the model agrees with the most records of the device's own that say which widget
/// was on top (rotations, top-scope observations, taps, selections), on the earlier part
/// of the interval only; the later part (`holdout`) is kept to measure the fit.
///
/// The search is coordinate ascent from the starting policy: each parameter in turn (in an
/// order drawn from `seed`) takes its best value with the others fixed, until a sweep
/// changes nothing (converged) or the budget is spent. Ties keep the current value, else
/// take the one nearest the default: a parameter moves only when the records say so.
/// Each evaluation judges the records with a fold carried forward (`ForwardFold`), so it
/// costs about one replay of the device.
package struct Calibrator {
    /// What to fit, where, and how long to search.
    package struct Options: Sendable {
        package var device: String
        /// The interval whose records are used (microseconds).
        package var from: Int64
        package var to: Int64
        /// The parameters searched.
        package var parameters: [CalibrationRange]
        /// The share of the interval, at its end, never used to fit.
        package var holdout = 0.3
        /// Draws the order in which a sweep visits the parameters.
        package var seed: UInt64 = 1
        /// The longest the search runs.
        package var budget: Duration = .seconds(60)

        package init(device: String, from: Int64, to: Int64, parameters: [CalibrationRange]) {
            self.device = device
            self.from = from
            self.to = to
            self.parameters = parameters
        }

        /// The instant that splits the interval: records at or before it fit, those after it are held out.
        package var cut: Int64 { to - Int64((Double(to - from) * holdout).rounded(.down)) }
    }

    package let ledger: Ledger
    /// The policy the search starts from (the defaults, or a file's).
    package let start: Policy
    package let options: Options
    /// Told after each parameter's values are measured, with what the search has done so
    /// far: for a progress line.
    package var onProgress: (@Sendable (String) -> Void)?

    package init(ledger: Ledger, start: Policy, options: Options) {
        self.ledger = ledger
        self.start = start
        self.options = options
    }

    /// The device's records in `[from, to]` judged under `parameters`. `concurrent`: other
    /// judgements run on other threads at the same time.
    func judge(_ parameters: PolicyParameters, from: Int64, to: Int64, concurrent: Bool = false) throws
        -> [Explainer.Observation]
    {
        let projector = Projector(ledger: ledger, policy: Policy(parameters: parameters))
        // A candidate policy's checkpoints are neither read nor made: one fold serves.
        projector.useCheckpoints = false
        let forward = ForwardFold(projector: projector, device: options.device, concurrent: concurrent)
        return try Explainer(forward: forward).observations(
            stack: nil, from: from, to: to, query: ProjectionQuery())
    }

    /// The agreement on the fitted part of the interval under each of `candidates`, judged
    /// on every core at once; nil for those not begun by `deadline`.
    func agreements(_ candidates: [PolicyParameters], deadline: ContinuousClock.Instant) throws -> [AgreementRate?] {
        let results = Mutex<[AgreementRate?]>(Array(repeating: nil, count: candidates.count))
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: candidates.count) { k in
            guard ContinuousClock().now < deadline, failure.withLock({ $0 == nil }) else { return }
            do {
                let judged = try judge(candidates[k], from: options.from, to: options.cut, concurrent: true)
                let rate = AgreementRate(
                    agrees: judged.filter { $0.judgedOnTop && $0.agrees }.count,
                    judged: judged.filter(\.judgedOnTop).count)
                results.withLock { $0[k] = rate }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }
    }

    /// Runs the search and judges every record of the interval before and after it.
    package func run() throws -> CalibrationReport {
        let clock = ContinuousClock()
        let began = clock.now
        var search = Search(calibrator: self, deadline: began.advanced(by: options.budget))
        let converged = try search.ascend()
        let fitted = search.current
        let before = try judge(start.parameters, from: options.from, to: options.to)
        let after = try judge(fitted, from: options.from, to: options.to)
        let families = try RecordFamily.of(after.map(\.event), in: ledger)
        var parameters = [CalibrationReport.Parameter]()
        for range in options.parameters {
            let alone = range.setting(range.value(in: start.parameters), in: fitted)
            parameters.append(
                CalibrationReport.Parameter(
                    range: range, start: range.value(in: start.parameters), fitted: range.value(in: fitted),
                    sensitivity: try search.agreement(alone), best: search.bestValues(range)))
        }
        let policy = Policy(parameters: fitted, name: Policy.fittedName)
        return CalibrationReport(
            options: options, startPolicy: start, policy: policy, before: before, after: after, families: families,
            parameters: parameters, evaluations: search.evaluations, converged: converged,
            elapsed: clock.now - began)
    }
}

/// The coordinate ascent: its position, the agreements it has measured, and its budget.
struct Search {
    let calibrator: Calibrator
    let deadline: ContinuousClock.Instant
    var current: PolicyParameters
    /// Agreeing records on the fitted part, by parameters tried.
    var measured: [PolicyParameters: AgreementRate] = [:]
    /// Each parameter's scores across its values in the last sweep that visited it.
    var lastScores: [String: [Int]] = [:]
    var evaluations = 0

    init(calibrator: Calibrator, deadline: ContinuousClock.Instant) {
        self.calibrator = calibrator
        self.deadline = deadline
        self.current = calibrator.start.parameters
    }

    /// The search ran out of time.
    struct BudgetSpent: Error {}

    /// The agreement on the fitted part of the interval under `parameters`, measured once.
    mutating func agreement(_ parameters: PolicyParameters) throws -> AgreementRate {
        try measure([parameters], until: .now.advanced(by: .seconds(86_400 * 365)))
        return measured[parameters]!
    }

    /// Measures those of `candidates` not yet measured, on every core; throws `BudgetSpent`
    /// when the deadline leaves some unmeasured.
    mutating func measure(_ candidates: [PolicyParameters], until deadline: ContinuousClock.Instant) throws {
        var missing = [PolicyParameters]()
        for c in candidates where measured[c] == nil && !missing.contains(c) { missing.append(c) }
        guard !missing.isEmpty else { return }
        let rates = try calibrator.agreements(missing, deadline: deadline)
        for (parameters, rate) in zip(missing, rates) {
            guard let rate else { continue }
            measured[parameters] = rate
            evaluations += 1
        }
        if rates.contains(where: { $0 == nil }) { throw BudgetSpent() }
    }

    /// The values of `range` that tied for the most agreements the last time it was
    /// searched (all of them when it never was).
    func bestValues(_ range: CalibrationRange) -> [ParameterValue] {
        guard let scores = lastScores[range.name], let best = scores.max() else { return range.values }
        return range.values.indices.filter { scores[$0] == best }.map { range.values[$0] }
    }

    /// Sweeps until nothing changes (true) or the budget is spent (false).
    mutating func ascend() throws -> Bool {
        var order = calibrator.options.parameters
        var random = SplitMix64(seed: calibrator.options.seed)
        for k in stride(from: order.count - 1, to: 0, by: -1) {
            order.swapAt(k, Int(random.next() % UInt64(k + 1)))
        }
        do {
            while true {
                var changed = false
                for range in order where try improve(range) { changed = true }
                if !changed { return true }
            }
        } catch is BudgetSpent {
            return false
        }
    }

    /// Moves `range`'s parameter to its best value with the others fixed; whether it moved.
    mutating func improve(_ range: CalibrationRange) throws -> Bool {
        let candidates = range.values.map { range.setting($0, in: current) }
        try measure(candidates, until: deadline)
        let scores = candidates.map { measured[$0]!.agrees }
        lastScores[range.name] = scores
        calibrator.onProgress?("\(evaluations) evaluations; searched \(range.name)")
        let best = scores.max() ?? 0
        let now = range.value(in: current)
        if let k = range.values.firstIndex(of: now), scores[k] == best { return false }
        let preferred = range.value(in: calibrator.start.parameters)
        let winners = range.values.indices.filter { scores[$0] == best }
        let chosen = winners.min {
            (range.steps(from: range.values[$0], to: preferred), $0) < (
                range.steps(from: range.values[$1], to: preferred), $1
            )
        }!
        current = range.setting(range.values[chosen], in: current)
        return true
    }
}

/// What kind of record of the device's own an observation judges.
package enum RecordFamily: String, CaseIterable, Sendable {
    case rotation = "stack.rotated"
    case observed = "stack.observed"
    case tap = "widget.tapped"
    case selection = "layout.observed"

    /// Each record's family, by sequence number.
    static func of(_ seqs: [UInt64], in ledger: Ledger) throws -> [UInt64: RecordFamily] {
        try ledger.read { r in
            var out = [UInt64: RecordFamily]()
            for seq in Set(seqs) {
                if let family = try r.withRecord(seq, { RecordFamily(rawValue: $0.envelope.type) }) ?? nil {
                    out[seq] = family
                }
            }
            return out
        }
    }
}

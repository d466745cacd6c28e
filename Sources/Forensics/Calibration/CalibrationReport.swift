import Projections
import RecordFormat
package import SmartStack

/// What a calibration found: the records used and held out, the agreement before and
/// after, each parameter's fitted value and sensitivity, and the records still in
/// disagreement. `policyJSON` is the fitted policy's file; `writeJSON` and `text` the report.
package struct CalibrationReport {
    /// One parameter searched.
    package struct Parameter {
        package var range: CalibrationRange
        /// Its value in the starting policy.
        package var start: ParameterValue
        package var fitted: ParameterValue
        /// The agreement on the fitted records with this parameter alone back at its start value.
        package var sensitivity: AgreementRate
        /// The values under which the model agrees with the most fitted records, the
        /// others fixed at their fitted values.
        package var best: [ParameterValue]

        /// Whether the records single the value out: at most two neighbouring values agree
        /// best. Otherwise the records only bound it (or, flat across the range, say
        /// nothing), and the fitted value is the best nearest the start's.
        package var identified: Bool {
            best.count == 1 || (best.count == 2 && range.steps(from: best[0], to: best[1]) == 1)
        }
    }

    package var options: Calibrator.Options
    package var startPolicy: Policy
    package var policy: Policy
    /// The interval's records judged under the starting policy, and under the fitted one.
    package var before: [Explainer.Observation]
    package var after: [Explainer.Observation]
    package var families: [UInt64: RecordFamily]
    package var parameters: [Parameter]
    package var evaluations: Int
    package var converged: Bool
    package var elapsed: Duration

    /// Whether a record lies in the part of the interval held out.
    func isHeldOut(_ o: Explainer.Observation) -> Bool { o.time.microseconds > options.cut }

    /// The agreement among `records` on the part asked for.
    func rate(_ records: [Explainer.Observation], heldOut: Bool) -> AgreementRate {
        let part = records.filter { isHeldOut($0) == heldOut && $0.judgedOnTop }
        return AgreementRate(agrees: part.filter(\.agrees).count, judged: part.count)
    }

    /// The records of the fitted part (or the held-out one) that say which widget was on
    /// top, by family: how many there are and how many the fitted model could judge.
    func counts(heldOut: Bool) -> [(family: RecordFamily, records: Int, judged: Int)] {
        RecordFamily.allCases.map { family in
            let part = after.filter { isHeldOut($0) == heldOut && $0.scope == .top && families[$0.event] == family }
            return (family, part.count, part.filter(\.judgedOnTop).count)
        }
    }

    /// The records of the part that say only that a stack was on screen: they cannot say
    /// which member was on top, so they are not used to fit.
    func stackScoped(heldOut: Bool) -> Int {
        after.filter { isHeldOut($0) == heldOut && $0.scope == .stack }.count
    }

    /// The records the fitted model still disagrees with, in time order.
    package var disagreements: [Explainer.Observation] { after.filter(\.disagrees) }

    /// Seconds per evaluation, over the whole search.
    var secondsPerEvaluation: Double {
        evaluations == 0 ? 0 : seconds(elapsed) / Double(evaluations)
    }

    func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// The fitted policy's file: the name `smartstack-1-fit`, its version, digest and
    /// parameters, and what it was fitted on. Nothing in it depends on the time the search
    /// took, so the same store, options and seed write the same bytes.
    package func policyJSON(tool: String) -> String {
        var w = CanonicalWriter()
        w.beginObject()
        ProjectionJSON.writePolicyMembers(&w, policy)
        w.key("parameters")
        w.raw(policy.parametersJSON(pretty: false))
        w.key("calibration")
        w.beginObject()
        w.key("from")
        w.string(startPolicy.name)
        w.key("fromDigest")
        w.string(startPolicy.digest)
        w.key("device")
        w.string(options.device)
        w.key("interval")
        writeInterval(&w)
        w.key("fitted")
        w.beginArray()
        for p in parameters { w.string(p.range.name) }
        w.endArray()
        w.key("converged")
        w.bool(converged)
        w.key("agreement")
        writeAgreement(&w)
        w.endObject()
        w.key("note")
        w.string(
            "StackLedger's model with parameters fitted to one device's records; not Apple's algorithm")
        w.key("tool")
        w.string(tool)
        w.endObject()
        return w.text + "\n"
    }

    func writeInterval(_ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("from")
        w.time(Timestamp(microseconds: options.from))
        w.key("to")
        w.time(Timestamp(microseconds: options.to))
        w.key("heldOutAfter")
        w.time(Timestamp(microseconds: options.cut))
        w.key("holdout")
        w.number(options.holdout)
        w.key("seed")
        w.integer(Int(truncatingIfNeeded: options.seed))
        w.endObject()
    }

    func writeAgreement(_ w: inout CanonicalWriter) {
        w.beginObject()
        for (key, records, heldOut) in [
            ("before", before, false), ("beforeHeldOut", before, true), ("after", after, false),
            ("afterHeldOut", after, true),
        ] {
            w.key(key)
            Self.write(&w, rate(records, heldOut: heldOut))
        }
        w.endObject()
    }

    static func write(_ w: inout CanonicalWriter, _ rate: AgreementRate) {
        w.beginObject()
        w.key("agrees")
        w.integer(rate.agrees)
        w.key("judged")
        w.integer(rate.judged)
        w.key("share")
        if let s = rate.share { w.number(s) } else { w.null() }
        w.key("interval95")
        if let i = rate.interval {
            w.beginArray()
            w.number((i.low * 10_000).rounded() / 10_000)
            w.number((i.high * 10_000).rounded() / 10_000)
            w.endArray()
        } else {
            w.null()
        }
        w.endObject()
    }
}

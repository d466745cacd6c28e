import Foundation
import Projections
import RecordFormat
package import SmartStack

extension CalibrationReport {
    /// The report as `calibrate --json` prints it (docs/queries.md, "calibrate").
    package func writeJSON(_ w: inout CanonicalWriter, store: String, out: String, tool: String) {
        w.beginObject()
        w.key("policy")
        w.beginObject()
        ProjectionJSON.writePolicyMembers(&w, policy)
        w.key("file")
        w.string(out)
        w.endObject()
        w.key("startPolicy")
        w.beginObject()
        w.key("name")
        w.string(startPolicy.name)
        w.key("digest")
        w.string(startPolicy.digest)
        w.endObject()
        w.key("device")
        w.string(options.device)
        w.key("interval")
        writeInterval(&w)
        w.key("records")
        w.beginObject()
        for (key, heldOut) in [("fitted", false), ("heldOut", true)] {
            w.key(key)
            w.beginArray()
            for c in counts(heldOut: heldOut) {
                w.beginObject()
                w.key("family")
                w.string(c.family.rawValue)
                w.key("records")
                w.integer(c.records)
                w.key("judged")
                w.integer(c.judged)
                w.endObject()
            }
            w.endArray()
        }
        w.key("stackScope")
        w.beginObject()
        w.key("fitted")
        w.integer(stackScoped(heldOut: false))
        w.key("heldOut")
        w.integer(stackScoped(heldOut: true))
        w.endObject()
        w.endObject()
        w.key("agreement")
        writeAgreement(&w)
        w.key("parameters")
        w.beginArray()
        for p in parameters { write(&w, p) }
        w.endArray()
        w.key("disagreements")
        w.beginArray()
        for o in disagreements {
            w.beginObject()
            w.key("event")
            w.integer(Int(o.event))
            w.key("time")
            w.time(o.time)
            w.key("stack")
            if let s = o.stack { w.string(s) } else { w.null() }
            w.key("heldOut")
            w.bool(isHeldOut(o))
            w.key("detail")
            w.string(o.detail)
            w.key("why")
            w.string(whyCommand(o, store: store, out: out))
            w.endObject()
        }
        w.endArray()
        w.key("search")
        w.beginObject()
        w.key("evaluations")
        w.integer(evaluations)
        w.key("converged")
        w.bool(converged)
        w.key("seconds")
        w.number((seconds(elapsed) * 1000).rounded() / 1000)
        w.key("secondsPerEvaluation")
        w.number((secondsPerEvaluation * 10_000).rounded() / 10_000)
        w.key("budgetSeconds")
        w.number(seconds(options.budget))
        w.endObject()
        w.key("tool")
        w.string(tool)
        w.endObject()
    }

    private func write(_ w: inout CanonicalWriter, _ p: Parameter) {
        w.beginObject()
        w.key("name")
        w.string(p.range.name)
        w.key("basis")
        w.string(p.range.basis)
        w.key("range")
        ProjectionJSON.writeRange(&w, p.range)
        w.key("start")
        ProjectionJSON.write(&w, p.start)
        w.key("fitted")
        ProjectionJSON.write(&w, p.fitted)
        w.key("identified")
        w.bool(p.identified)
        w.key("best")
        w.beginArray()
        for v in p.best { ProjectionJSON.write(&w, v) }
        w.endArray()
        w.key("sensitivity")
        Self.write(&w, p.sensitivity)
        w.endObject()
    }

    /// The command that explains a record's instant under the fitted policy.
    func whyCommand(_ o: Explainer.Observation, store: String, out: String) -> String {
        "stackledger why --store \(store.shellQuoted) --device \(options.device.shellQuoted) --at \(o.time.rfc3339)"
            + " --stack \((o.stack ?? "?").shellQuoted) --policy \(out.shellQuoted)"
    }

    /// The report for a person.
    package func text(out: String, store: String) -> String {
        var s =
            "Calibrated \(policy.name) (digest \(policy.digest)) for \(options.device) from \(startPolicy.name) (\(startPolicy.digest)),"
        s += " written to \(out). StackLedger's model fitted to this device's records; not Apple's algorithm.\n"
        s +=
            "Interval \(Timestamp(microseconds: options.from).rfc3339) to \(Timestamp(microseconds: options.to).rfc3339);"
        s +=
            " records after \(Timestamp(microseconds: options.cut).rfc3339) (the last \(Int((options.holdout * 100).rounded())) %) are held out.\n"
        for (label, heldOut) in [("fitted on", false), ("held out", true)] {
            let parts = counts(heldOut: heldOut).filter { $0.records > 0 }
                .map { "\($0.records) \($0.family.rawValue) (\($0.judged) judged)" }
            s +=
                "  \(label): \(parts.isEmpty ? "no records that say which widget was on top" : parts.joined(separator: ", "))\n"
        }
        let scoped = stackScoped(heldOut: false) + stackScoped(heldOut: true)
        if scoped > 0 {
            s +=
                "  not used: \(scoped) record\(scoped == 1 ? "" : "s") saying only that a stack was on screen (they cannot say which member was on top)\n"
        }
        s += "Agreement with the device's records:\n"
        s +=
            "  fitted records:    before \(rate(before, heldOut: false).text), after \(rate(after, heldOut: false).text)\n"
        s +=
            "  held-out records:  before \(rate(before, heldOut: true).text), after \(rate(after, heldOut: true).text)\n"
        s += "Parameters:\n"
        for p in parameters {
            let numbers = p.range.values.filter { $0 != .unlimited }
            let span =
                "\(numbers.first!)..\(numbers.last!)" + (p.range.step.map { " by \(ParameterValue.number($0))" } ?? "")
                + (p.range.values.contains(.unlimited) ? ", or null (no cap)" : "")
            let moved = p.fitted == p.start ? "kept" : "from \(p.start)"
            s += "  \(p.range.name) = \(p.fitted) (\(moved); range \(span))"
            if p.identified {
                s += "; back at \(p.start) alone: \(p.sensitivity.text)\n"
            } else if p.best.count == p.range.values.count {
                s += "; not identified: the records agree equally across its range\n"
            } else {
                s +=
                    "; not identified: the records agree equally for \(p.best.map(\.description).joined(separator: ", "))\n"
            }
        }
        let left = disagreements
        s +=
            left.isEmpty
            ? "No record disagrees with the fitted model.\n" : "Records still in disagreement (\(left.count)):\n"
        for o in left.prefix(20) {
            s += "  event \(o.event) at \(o.time.rfc3339)\(isHeldOut(o) ? " (held out)" : ""): \(o.detail)\n"
            s += "    \(whyCommand(o, store: store, out: out))\n"
        }
        if left.count > 20 { s += "  ... and \(left.count - 20) more (--json lists them all)\n" }
        s += "Search: \(evaluations) evaluations in \(String(oneDecimal: seconds(elapsed))) s"
        s +=
            " (\(String(oneDecimal: secondsPerEvaluation * 1000)) ms each), \(converged ? "converged" : "stopped at the budget before converging").\n"
        return s
    }
}

extension String {
    /// The string as one word of a POSIX shell: as it is when it needs no quoting, else in
    /// single quotes.
    var shellQuoted: String {
        let plain = !isEmpty && allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@+,".contains($0)) }
        return plain ? self : "'" + replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `value` with one decimal.
    package init(oneDecimal value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}

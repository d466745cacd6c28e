import Ledger
public import SmartStack

/// Writes the JSON shapes of queries.md.
public enum ProjectionJSON {
    /// `"name"`, `"version"` and `"digest"` of `policy`, as members of the object being written.
    public static func writePolicyMembers(_ w: inout CanonicalWriter, _ policy: Policy) {
        w.key("name")
        w.string(policy.name)
        w.key("version")
        w.integer(Policy.version)
        w.key("digest")
        w.string(policy.digest)
    }

    /// `"policy": {"name", "version", "digest"}` (with `"fitted"` for a fitted policy) and `"tool"`.
    public static func writeHeader(_ w: inout CanonicalWriter, policy: Policy, tool: String) {
        w.key("policy")
        w.beginObject()
        writePolicyMembers(&w, policy)
        if let fit = policy.calibration { writeFitted(&w, fit) }
        w.endObject()
        w.key("tool")
        w.string(tool)
    }

    /// `policy --json`: the name, version, digest and parameters, the values calibration may
    /// try for each undocumented parameter, those it fits by default, and the tool.
    public static func writePolicyDocument(_ w: inout CanonicalWriter, policy: Policy, tool: String) {
        w.beginObject()
        writePolicyMembers(&w, policy)
        w.key("parameters")
        w.raw(policy.parametersJSON(pretty: false))
        // What `calibrate` may fit, and the values it tries: documented rules have none.
        w.key("ranges")
        w.beginObject()
        for range in PolicyParameters.calibrationRanges {
            w.key(range.name)
            writeRange(&w, range)
        }
        w.endObject()
        w.key("calibratedByDefault")
        w.beginArray()
        for name in PolicyParameters.calibratedByDefault { w.string(name) }
        w.endArray()
        w.key("tool")
        w.string(tool)
        w.endObject()
    }

    /// A calibration range: `{"values": [...], "step": S or null, "basis": B}`.
    public static func writeRange(_ w: inout CanonicalWriter, _ range: CalibrationRange) {
        w.beginObject()
        w.key("values")
        w.beginArray()
        for v in range.values { write(&w, v) }
        w.endArray()
        w.key("step")
        if let step = range.step { w.number(step) } else { w.null() }
        w.key("basis")
        w.string(range.basis)
        w.endObject()
    }

    /// A parameter's value: a number, a switch, or null (no cap).
    public static func write(_ w: inout CanonicalWriter, _ v: ParameterValue) {
        switch v {
        case .number(let d): w.number(d)
        case .flag(let b): w.bool(b)
        case .unlimited: w.null()
        }
    }

    /// `"fitted": {"device", "fromDigest", "parameters", "converged", "heldOut": {"agrees", "judged"} or null}`.
    static func writeFitted(_ w: inout CanonicalWriter, _ fit: PolicyCalibration) {
        w.key("fitted")
        w.beginObject()
        w.key("device")
        w.string(fit.device)
        w.key("fromDigest")
        w.string(fit.fromDigest)
        w.key("parameters")
        w.beginArray()
        for name in fit.fitted { w.string(name) }
        w.endArray()
        w.key("converged")
        w.bool(fit.converged)
        w.key("heldOut")
        if let held = fit.heldOut {
            w.beginObject()
            w.key("agrees")
            w.integer(held.agrees)
            w.key("judged")
            w.integer(held.judged)
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
    }

    /// `{"instance", "kind", "app"}` or null.
    public static func write(
        _ w: inout CanonicalWriter, _ widget: WidgetIdentity?, extra: ((inout CanonicalWriter) -> Void)? = nil
    ) {
        guard let widget else {
            w.null()
            return
        }
        w.beginObject()
        w.key("instance")
        w.string(widget.instance)
        w.key("kind")
        w.string(widget.kind)
        w.key("app")
        w.string(widget.app)
        extra?(&w)
        w.endObject()
    }

    /// A reason.
    public static func write(_ w: inout CanonicalWriter, _ r: Reason) {
        w.beginObject()
        w.key("code")
        w.string(r.code)
        w.key("basis")
        w.string(r.basis.rawValue)
        w.key("rule")
        w.string(r.rule)
        if r.basis == .policy {
            w.key("parameters")
            w.beginArray()
            for p in r.parameters { w.string(p) }
            w.endArray()
        }
        w.key("detail")
        w.string(r.detail)
        w.key("events")
        w.beginArray()
        for e in r.events { w.integer(Int(e)) }
        w.endArray()
        w.endObject()
    }

    /// A decision (one line of `replay --json`).
    public static func write(_ w: inout CanonicalWriter, _ d: Decision) {
        w.beginObject()
        w.key("time")
        w.time(d.time)
        w.key("device")
        w.string(d.device)
        w.key("stack")
        w.string(d.stack)
        w.key("action")
        w.string(d.action.rawValue)
        w.key("widget")
        write(&w, d.widget)
        w.key("from")
        write(&w, d.from)
        w.key("top")
        write(&w, d.top)
        w.key("reasons")
        w.beginArray()
        for r in d.reasons { write(&w, r) }
        w.endArray()
        w.key("assumptions")
        write(&w, d.assumptions)
        w.endObject()
    }

    /// An `assumptions` array (queries.md, "Assumptions").
    public static func write(_ w: inout CanonicalWriter, _ assumptions: [Assumption]) {
        w.beginArray()
        for a in assumptions {
            w.beginObject()
            w.key("code")
            w.string(a.code)
            w.key("stack")
            w.string(a.stack)
            w.key("instance")
            if let i = a.instance { w.string(i) } else { w.null() }
            w.key("events")
            w.beginArray()
            for e in a.events { w.integer(Int(e)) }
            w.endArray()
            w.key("detail")
            w.string(a.detail)
            w.endObject()
        }
        w.endArray()
    }

    /// An active relevance or null.
    public static func write(_ w: inout CanonicalWriter, _ r: ActiveRelevance?) {
        guard let r else {
            w.null()
            return
        }
        w.beginObject()
        w.key("score")
        w.number(r.score)
        w.key("normalized")
        w.number(r.normalized.roundedForDisplay)
        w.key("since")
        w.time(r.since)
        w.key("until")
        if let u = r.until { w.time(u) } else { w.null() }
        w.key("event")
        w.integer(Int(r.event))
        w.endObject()
    }

    /// The `stacks` array of `state --json`.
    public static func writeStacks(_ w: inout CanonicalWriter, _ stacks: [StackSnapshot]) {
        w.beginArray()
        for stack in stacks {
            w.beginObject()
            w.key("stack")
            w.string(stack.stack)
            w.key("platform")
            w.string(stack.platform)
            w.key("smartRotate")
            w.bool(stack.smartRotate)
            w.key("widgetSuggestions")
            w.bool(stack.widgetSuggestions)
            w.key("top")
            write(&w, stack.top?.widget) { w in
                w.key("suggested")
                w.bool(stack.top?.suggested ?? false)
            }
            w.key("widgets")
            w.beginArray()
            for shown in stack.widgets {
                write(&w, shown.widget) { w in
                    w.key("position")
                    w.integer(shown.position)
                    w.key("pinned")
                    w.bool(shown.pinned)
                    w.key("suggested")
                    w.bool(shown.suggested)
                    w.key("relevance")
                    write(&w, shown.relevance)
                    w.key("entry")
                    if let entry = shown.entry {
                        w.beginObject()
                        w.key("date")
                        w.time(entry.date)
                        w.key("event")
                        w.integer(Int(entry.event))
                        w.endObject()
                    } else {
                        w.null()
                    }
                }
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }
}

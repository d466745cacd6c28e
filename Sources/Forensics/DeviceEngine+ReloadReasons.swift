import RecordFormat
import SmartStack

extension DeviceEngine {
    /// T2 and T3 for a widget without an active relevance: whether WidgetKit would have
    /// asked for a new timeline by now, and whether the widget's reload budget is spent.
    mutating func reloadReasons(_ w: WidgetIdentity) -> [Reason] {
        guard let r = state.reloads[TimelineBook.key(app: w.app, kind: w.kind)] else { return [] }
        var out = [Reason]()
        let now = state.now
        let requested = r.requestSeq != 0 && r.requestTime >= r.timelineTime && r.requestTime <= now
        if r.timelineSeq != 0 && !requested {
            let at = state.clock.clockText(r.timelineTime)
            if let due = r.due, due > now {
                out.append(
                    Reason(
                        .reloadNotDue, .documented, "T2",
                        "the \(at) timeline's reload policy lets WidgetKit ask \(w.app) for the next timeline of \(w.kind) no earlier than \(state.clock.clockText(due)); no reload was requested since",
                        events: [r.timelineSeq]))
            } else if r.due == nil {
                out.append(
                    Reason(
                        .reloadNotDue, .documented, "T2",
                        "the \(at) timeline's reload policy is never: WidgetKit asks for a new timeline of \(w.kind) only when \(w.app) calls reloadTimelines, and it has not since",
                        events: [r.timelineSeq]))
            }
        }
        let recent = r.reloads.filter {
            $0.time > now - ReloadState.windowMicros && $0.time <= now
                && ($0.instance == nil || $0.instance == w.instance)
        }
        if let b = r.budgetRemaining, b <= 0, r.budgetSeq == recent.last?.seq {
            out.append(
                Reason(
                    .reloadBudgetSpent, .documented, "T3",
                    "the device recorded no reload budget left for \(w.kind) at \(state.clock.clockText(recent.last!.time)) (budgetRemaining \(format(b))): further reloads wait for new budget",
                    events: [r.budgetSeq]))
        } else if recent.count >= parameters.reloadBudgetPerDay, let first = recent.first, let last = recent.last {
            out.append(
                Reason(
                    .reloadBudgetSpent, .policy, "reloadBudgetPerDay",
                    "\(w.kind) was reloaded \(recent.count) times in the 24 h before now (\(state.clock.clockText(first.time)) to \(state.clock.clockText(last.time))); the daily budget is \(parameters.reloadBudgetPerDay), so further reloads wait",
                    events: [first.seq, last.seq]))
        }
        return out
    }
}

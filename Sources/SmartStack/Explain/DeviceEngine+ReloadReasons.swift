import RecordFormat

extension DeviceEngine {
    /// T2 and T3 for a widget without an active relevance: whether WidgetKit would have
    /// asked for a new timeline by now, and whether the widget's reload budget is spent.
    mutating func reloadReasons(_ widget: WidgetIdentity) -> [Reason] {
        guard let reloads = state.reloads[TimelineBook.key(app: widget.app, kind: widget.kind)] else { return [] }
        var out = [Reason]()
        let now = state.now
        let requested =
            reloads.requestSeq != 0 && reloads.requestTime >= reloads.timelineTime && reloads.requestTime <= now
        if reloads.timelineSeq != 0 && !requested {
            let at = state.clock.clockText(reloads.timelineTime)
            if let due = reloads.due, due > now {
                out.append(
                    Reason(
                        .reloadNotDue, .documented, "T2",
                        "the \(at) timeline's reload policy lets WidgetKit ask \(widget.app) for the next timeline of \(widget.kind) no earlier than \(state.clock.clockText(due)); no reload was requested since",
                        events: [reloads.timelineSeq]))
            } else if reloads.due == nil {
                out.append(
                    Reason(
                        .reloadNotDue, .documented, "T2",
                        "the \(at) timeline's reload policy is never: WidgetKit asks for a new timeline of \(widget.kind) only when \(widget.app) calls reloadTimelines, and it has not since",
                        events: [reloads.timelineSeq]))
            }
        }
        let recent = reloads.reloads.filter {
            $0.time > now - ReloadState.windowMicros && $0.time <= now
                && ($0.instance == nil || $0.instance == widget.instance)
        }
        if let budget = reloads.budgetRemaining, budget <= 0, reloads.budgetSeq == recent.last?.seq {
            out.append(
                Reason(
                    .reloadBudgetSpent, .documented, "T3",
                    "the device recorded no reload budget left for \(widget.kind) at \(state.clock.clockText(recent.last!.time)) (budgetRemaining \(format(budget))): further reloads wait for new budget",
                    events: [reloads.budgetSeq]))
        } else if recent.count >= parameters.reloadBudgetPerDay, let first = recent.first, let last = recent.last {
            out.append(
                Reason(
                    .reloadBudgetSpent, .policy, "reloadBudgetPerDay",
                    "\(widget.kind) was reloaded \(recent.count) times in the 24 h before now (\(state.clock.clockText(first.time)) to \(state.clock.clockText(last.time))); the daily budget is \(parameters.reloadBudgetPerDay), so further reloads wait",
                    events: [first.seq, last.seq]))
        }
        return out
    }
}

import RecordFormat

/// One `widget.reloaded` the engine remembers for the reload budget.
struct ReloadRecord: Codable, Hashable {
    var time: Int64
    var seq: UInt64
    var instance: String?
}

/// What the engine knows of one app's kind's reloads (rules T2 and T3): its last
/// timeline's reload policy, the reload requests since, and the reloads of the last 24 h.
struct ReloadState: Codable, Hashable {
    /// The last delivered timeline (0: none).
    var timelineSeq: UInt64 = 0
    var timelineTime: Int64 = .min
    /// When its policy lets WidgetKit ask for the next timeline (`atEnd`: the last entry's
    /// date; `after`: the date); nil for `never`.
    var due: Int64?
    /// The last `widget.reloadRequested` naming the kind or all the app's kinds (0: none).
    var requestSeq: UInt64 = 0
    var requestTime: Int64 = .min
    /// The reloads of the last 24 h, oldest first.
    var reloads: [ReloadRecord] = []
    /// The last `budgetRemaining` a reload recorded, and that reload.
    var budgetRemaining: Double?
    var budgetSeq: UInt64 = 0

    /// The budget window of T3.
    static let windowMicros: Int64 = 86_400_000_000
    /// The most reloads kept: more than any daily budget the documentation gives.
    static let kept = 512

    mutating func noteTimeline(_ t: WidgetTimeline, at now: Int64, seq: UInt64) {
        timelineSeq = seq
        timelineTime = now
        switch t.policy {
        case .atEnd:
            var last = Int64.min
            for e in t.entries { last = max(last, e.date.microseconds) }
            due = t.entries.isEmpty ? now : last
        case .after(let date): due = date.microseconds
        case .never: due = nil
        }
    }

    mutating func noteReload(_ r: WidgetReloaded, at now: Int64, seq: UInt64) {
        // Oldest first: the ones out of the window are a prefix.
        var expired = 0
        while expired < reloads.count && reloads[expired].time <= now - ReloadState.windowMicros { expired += 1 }
        if expired > 0 { reloads.removeFirst(expired) }
        if reloads.count >= ReloadState.kept { reloads.removeFirst() }
        reloads.append(ReloadRecord(time: now, seq: seq, instance: r.instance))
        if let b = r.budgetRemaining {
            budgetRemaining = b
            budgetSeq = seq
        }
    }
}

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

import RecordFormat

/// One `widget.reloaded` the engine remembers for the reload budget.
struct ReloadRecord: Hashable {
    var time: Int64
    var seq: UInt64
    var instance: String?
}

/// What the engine knows of one app's kind's reloads (rules T2 and T3): its last
/// timeline's reload policy, the reload requests since, and the reloads of the last 24 h.
struct ReloadState: Hashable {
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

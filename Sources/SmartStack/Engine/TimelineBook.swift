public import RecordFormat

/// A widget's relevance active at an instant (rules R1-R7).
public struct ActiveRelevance: Hashable, Sendable {
    /// The entry's score, on the app's own scale.
    public var score: Double
    /// The score normalised against the same provider's scores (queries.md), exact: answers
    /// print it to 4 decimals (`roundedForDisplay`).
    public var normalized: Double
    /// The entry's date.
    public var since: Timestamp
    /// When the window closes (`date + duration`), or nil for duration 0 (until the
    /// next entry that carries relevance).
    public var until: Timestamp?
    /// The `widget.timeline` event that delivered the entry, or the
    /// `widget.relevanceObserved` that recorded it.
    public var event: UInt64
    /// Whether the relevance comes from the device's own record
    /// (`widget.relevanceObserved`), not the app's timeline.
    public var fromDeviceRecord = false
}

/// A timeline entry as the engine keeps it.
struct StoredEntry: Hashable {
    var date: Int64
    var offset: Int16
    /// nil: the entry carries no relevance (keeps the previous, R4).
    var score: Double?
    var duration: Double
    var seq: UInt64
}

/// The merged entries of one provider key: earlier timelines' entries before each later
/// delivery, then the later timeline's entries.
struct EntryList: Hashable {
    var delivered: Int64 = .min
    var entries: [StoredEntry] = []
}

extension EntryList {
    /// Takes a timeline delivered at `now` (its entries sorted by date): it replaces the
    /// entries from `now` on. Then drops entries that can no longer matter: everything
    /// before the latest entry that carries relevance at or before `now`.
    mutating func replace(from now: Int64, with fresh: [StoredEntry]) {
        entries.removeAll { $0.date >= now }
        let ordered = entries.last.map { last in fresh.first.map { last.date <= $0.date } ?? true } ?? true
        entries.append(contentsOf: fresh)
        if !ordered { entries.sort { $0.date < $1.date } }
        delivered = now
        guard let last = entries.lastIndex(where: { $0.date <= now && $0.score != nil }), last > 0 else { return }
        entries.removeFirst(last)
    }
}

extension EntryList {
    /// The entry whose relevance governs `at` (the latest dated at or before it that
    /// carries relevance), and the first entry with relevance dated after `at`. The
    /// entries are in date order: one search finds where `at` falls, and each is the
    /// nearest entry with relevance on its side.
    func relevance(at: Int64) -> (governing: StoredEntry?, next: StoredEntry?) {
        let split = entries.partitionPoint { $0.date <= at }
        var k = split
        while k < entries.count && entries[k].score == nil { k += 1 }
        var g = split - 1
        while g >= 0 && entries[g].score == nil { g -= 1 }
        return (g >= 0 ? entries[g] : nil, k < entries.count ? entries[k] : nil)
    }
}

/// The min and max positive score of one delivery, for the normalised score.
struct ScoreSpan: Hashable {
    var delivered: Int64
    var min: Double
    var max: Double
}

/// A timeline provider: an app's kind, or one instance of it.
struct ProviderKey: Hashable {
    var app: String
    var kind: String
    var instance: String?

    /// Hashes the kind and the instance only (they tell providers apart in practice, and
    /// equality still compares the app), folded into one word first: the lookup then
    /// feeds `Hasher` eight bytes instead of every byte of both names.
    func hash(into hasher: inout Hasher) {
        hasher.combine(StringHash.of(kind) ^ ((instance.map(StringHash.of) ?? 0) &* 0x9E37_79B9_7F4A_7C15))
    }
}

/// One provider key's timelines: its merged entries, once it delivered a timeline, and,
/// under a kind-wide key, the score history of every delivery of the kind (with or
/// without an instance), so that a widget's relevance is found with one lookup.
struct ProviderTimelines: Hashable {
    var list: EntryList?
    /// Under a kind-wide key: the device's own records of the kind's relevance
    /// (`widget.relevanceObserved`), in date order.
    var observed: [StoredEntry]?
    /// Oldest delivery first; only the spans that can still set the minimum or the
    /// maximum of a window.
    var spans: [ScoreSpan]?
}

/// Every provider's timelines on a device, and the score history that normalises them.
struct TimelineBook: Hashable {
    /// The slot in `records` of each provider (kind-wide, or one instance). A slot is
    /// never removed or reused, so that a widget's slots, once found, stay its own.
    private(set) var slots: [ProviderKey: Int] = [:]
    /// Entry lists per provider, and score histories per app and kind, by slot.
    private(set) var records: [ProviderTimelines] = []
    /// How many entry lists belong to one instance (derived: most logs have none, and
    /// then a widget's list is found with one lookup).
    var instanceLists = 0

    static func key(app: String, kind: String, instance: String? = nil) -> ProviderKey {
        ProviderKey(app: app, kind: kind, instance: instance)
    }

    /// The keys that have an entry list.
    var listKeys: [ProviderKey] { slots.compactMap { records[$0.value].list == nil ? nil : $0.key } }

    /// The slot of `key`, made (empty) when it has none.
    mutating func slot(_ key: ProviderKey) -> Int {
        if let found = slots[key] { return found }
        slots[key] = records.count
        records.append(ProviderTimelines())
        return records.count - 1
    }

    /// Sets the entry list of `key` (restoring a checkpoint).
    mutating func setList(_ list: EntryList, for key: ProviderKey) { records[slot(key)].list = list }

    /// Sets the score history of `key` (restoring a checkpoint).
    mutating func setSpans(_ spans: [ScoreSpan], for key: ProviderKey) { records[slot(key)].spans = spans }

    /// Where a widget's timelines are: its kind's slot and its own, when they have one.
    struct WidgetSlots {
        var kind: Int?
        var instance: Int?
        /// How many slots there were when these were found: a later slot may be the widget's.
        var known: Int
    }

    /// The slots of a widget instance's timelines.
    func slots(app: String, kind: String, instance: String) -> WidgetSlots {
        WidgetSlots(
            kind: slots[TimelineBook.key(app: app, kind: kind)],
            instance: instanceLists > 0 ? slots[TimelineBook.key(app: app, kind: kind, instance: instance)] : nil,
            known: records.count)
    }

    /// Whether `found` still tells where a widget's timelines are.
    func stillHolds(_ found: WidgetSlots) -> Bool { found.known == records.count }

    /// Applies a delivered timeline; appends to `wakeups` the instants it schedules
    /// (entry dates and window ends) at or after `now`.
    mutating func deliver(
        _ timeline: WidgetTimeline, app: String, at now: Int64, seq: UInt64, windowMicros: Int64, wakeups: inout [Int64]
    ) {
        let key = TimelineBook.key(app: app, kind: timeline.kind, instance: timeline.instance)
        var fresh = [StoredEntry]()
        fresh.reserveCapacity(timeline.entries.count)
        var lo = Double.infinity
        var hi = -Double.infinity
        var sorted = true
        for entry in timeline.entries {
            let score = entry.relevance?.score
            if let last = fresh.last, last.date > entry.date.microseconds { sorted = false }
            fresh.append(
                StoredEntry(
                    date: entry.date.microseconds, offset: entry.date.offsetMinutes, score: score,
                    duration: entry.relevance?.duration ?? 0, seq: seq))
            if let score, score > 0 {
                lo = Swift.min(lo, score)
                hi = Swift.max(hi, score)
            }
        }
        if !sorted { fresh.sort { $0.date < $1.date } }
        // A later timeline replaces the earlier ones' entries from its delivery on, whether
        // each was for the whole kind or for one instance (T1): an instance's list starts
        // as a copy of its kind's, and a kind's timeline goes into every instance's list too.
        let index = slot(key)
        if records[index].list == nil {
            if key.instance != nil {
                instanceLists += 1
                records[index].list =
                    slots[TimelineBook.key(app: app, kind: timeline.kind)].flatMap { records[$0].list } ?? EntryList()
            } else {
                records[index].list = EntryList()
            }
        }
        records[index].list!.replace(from: now, with: fresh)
        if key.instance == nil && instanceLists > 0 {
            for (other, slot) in slots where other.instance != nil && other.kind == timeline.kind && other.app == app {
                records[slot].list?.replace(from: now, with: fresh)
            }
        }

        let kindIndex = key.instance == nil ? index : slot(TimelineBook.key(app: app, kind: timeline.kind))
        var spans = records[kindIndex].spans ?? []
        records[kindIndex].spans = nil
        if lo <= hi {
            // An older span within this one's range can no longer set the minimum or the
            // maximum: whenever it is in the window, this newer one is too.
            spans.removeAll { $0.min >= lo && $0.max <= hi }
            spans.append(ScoreSpan(delivered: now, min: lo, max: hi))
        }
        spans.removeAll { $0.delivered < now - windowMicros }
        records[kindIndex].spans = spans

        for entry in fresh where entry.score != nil {
            if entry.date >= now { wakeups.append(entry.date) }
            if entry.duration > 0 {
                let end = entry.date + EventLimits.micros(entry.duration)
                if end >= now { wakeups.append(end) }
            }
        }
    }

    /// Takes the device's record of an entry's relevance (`widget.relevanceObserved`) for
    /// a kind: it feeds the kind's relevance where the app's own timelines do not speak,
    /// normalised with the same provider's scores; appends the instants it schedules.
    mutating func observe(
        _ r: RelevanceObserved, app: String, at now: Int64, seq: UInt64, windowMicros: Int64, wakeups: inout [Int64]
    ) {
        let index = slot(TimelineBook.key(app: app, kind: r.kind))
        let entry = StoredEntry(
            date: r.date.microseconds, offset: r.date.offsetMinutes, score: r.relevance?.score,
            duration: r.relevance?.duration ?? 0, seq: seq)
        var list = records[index].observed ?? []
        list.insert(entry, at: list.partitionPoint { $0.date <= entry.date })
        records[index].observed = list
        if let score = entry.score, score > 0 {
            var spans = records[index].spans ?? []
            spans.removeAll { $0.min >= score && $0.max <= score }
            spans.append(ScoreSpan(delivered: now, min: score, max: score))
            spans.removeAll { $0.delivered < now - windowMicros }
            records[index].spans = spans
            if entry.date >= now { wakeups.append(entry.date) }
            if entry.duration > 0 {
                let end = entry.date + EventLimits.micros(entry.duration)
                if end >= now { wakeups.append(end) }
            }
        }
    }

    /// Sets the device's relevance records of `key` (restoring a checkpoint).
    mutating func setObserved(_ entries: [StoredEntry], for key: ProviderKey) { records[slot(key)].observed = entries }

    /// The entry list that applies to a widget instance: its own, which holds its kind's
    /// timelines too once it has one, else its kind's.
    func list(app: String, kind: String, instance: String) -> EntryList? {
        list(slots(app: app, kind: kind, instance: instance))
    }

    /// The entry list that applies to a widget, given its slots.
    private func list(_ found: WidgetSlots) -> EntryList? {
        found.instance.flatMap { records[$0].list } ?? found.kind.flatMap { records[$0].list }
    }

    /// The entry a widget displays at `at` (T1): the latest of its list dated at or
    /// before `at`, with or without relevance.
    func displayed(app: String, kind: String, instance: String, at: Int64) -> StoredEntry? {
        list(app: app, kind: kind, instance: instance)?.entries.last { $0.date <= at }
    }

    /// The relevance active at `at` for a widget, normalised, with its entry's duration;
    /// nil when none is.
    func active(app: String, kind: String, instance: String, at: Int64, windowMicros: Int64) -> (
        ActiveRelevance, Double
    )? {
        evaluate(app: app, kind: kind, instance: instance, at: at, windowMicros: windowMicros).0
    }

    /// The relevance active at `at` (normalised, with its entry's duration) and the first
    /// instant after `at` at which that may change by time alone (the next entry with
    /// relevance, the window's end, the oldest score of the normalisation window expiring).
    func evaluate(app: String, kind: String, instance: String, at: Int64, windowMicros: Int64) -> (
        (ActiveRelevance, Double)?, Int64
    ) {
        evaluate(slots(app: app, kind: kind, instance: instance), at: at, windowMicros: windowMicros)
    }

    /// The same, given the widget's slots.
    func evaluate(_ found: WidgetSlots, at: Int64, windowMicros: Int64) -> ((ActiveRelevance, Double)?, Int64) {
        var until = Int64.max
        let spans = found.kind.flatMap { records[$0].spans }
        if let first = spans?.first(where: { $0.delivered >= at - windowMicros }) {
            until = first.delivered + windowMicros + 1
        }
        let observed = found.kind.flatMap { records[$0].observed }
        // The app's own timelines speak from their first entry to their last; outside
        // that span, the device's records of the kind's relevance stand in.
        let appList = list(found)
        var fromDevice = false
        var governingEntry: StoredEntry?
        var nextEntry: StoredEntry?
        if let appList, let first = appList.entries.first, let last = appList.entries.last,
            observed == nil || (first.date <= at && at <= last.date)
        {
            (governingEntry, nextEntry) = appList.relevance(at: at)
            if observed != nil { until = Swift.min(until, last.date + 1) }
        } else if let observed {
            let outside = observed.filter { record in
                guard let first = appList?.entries.first, let last = appList?.entries.last else { return true }
                return record.date < first.date || record.date > last.date
            }
            (governingEntry, nextEntry) = EntryList(delivered: .min, entries: outside).relevance(at: at)
            fromDevice = true
            if let first = appList?.entries.first, first.date > at { until = Swift.min(until, first.date) }
        } else {
            return (nil, until)
        }
        let (governing, next) = (governingEntry, nextEntry)
        if let next { until = Swift.min(until, next.date) }
        guard let entry = governing, let score = entry.score else { return (nil, until) }
        var end: Int64? = nil
        if entry.duration > 0 {
            let windowEnd = entry.date + EventLimits.micros(entry.duration)
            if windowEnd > at { until = Swift.min(until, windowEnd) }
            end = windowEnd
        }
        guard score > 0 else { return (nil, until) }
        if let windowEnd = end, at >= windowEnd { return (nil, until) }
        var lo = score
        var hi = score
        for span in spans ?? [] where span.delivered <= at && span.delivered >= at - windowMicros {
            lo = Swift.min(lo, span.min)
            hi = Swift.max(hi, span.max)
        }
        let normalized = hi > lo ? (score - lo) / (hi - lo) : 1.0
        let closes = end ?? next?.date
        let active = ActiveRelevance(
            score: score, normalized: normalized,
            since: Timestamp(microseconds: entry.date, offsetMinutes: entry.offset),
            until: closes.map { Timestamp(microseconds: $0, offsetMinutes: entry.offset) }, event: entry.seq,
            fromDeviceRecord: fromDevice)
        return ((active, entry.duration), until)
    }
}

import RecordFormat

/// The usage model's view of the current local hour: which donations and app uses of
/// this hour of day are live (not deleted, within the pattern window), and the patterns
/// they form, worked out lazily. Derived from the state, never checkpointed. It holds
/// while its hour's records are as they were (`edits`); when the hour ends it is put
/// aside, and taken up again the next day at that hour if the records did not change,
/// less the ones that left the window in between.
struct UsageCache {
    /// The edits of its hour's records it reflects (`UsageEdits`); `.max`: none yet.
    var edits: UInt64 = .max
    /// The instants of `now` for which it holds: `[from, until)`.
    var from: Int64 = .max
    var until: Int64 = .min
    var hour = 0
    /// The end of that local hour.
    var hourEnd: Int64 = .min
    /// Indices into `state.usage[hour]` of the live records, oldest first.
    var live: [Int] = []
    /// Donation patterns that reach the minimum: (intent + parameters key, a record, evidence).
    var patterns: [(key: String, record: Int, evidence: [UInt64])]?
    /// Every group `patterns` is made from, whether or not it reaches the minimum; kept up
    /// to date as donations are appended, so that one donation does not regroup the hour.
    var groups: [PatternGroup]?
    /// The intents `patterns` was grouped for, and the `caches.placementEpoch` they are of.
    var patternIntents = IntentList()
    var patternEpoch: UInt64 = .max
    /// Per app, its uses and donations of this hour when they reach the minimum (else
    /// empty), and until when that holds.
    var appEvidence = SortedTable<UsageEvidence>()
    /// Per member instance, every matching donation (D1) live this hour, whether or not
    /// they reach the minimum (so that a donation appended adds to them), and until when
    /// that holds. Never iterated in its order: an unordered table, which takes an instance
    /// in constant time where a sorted table of a device's thousands of members shifts them all.
    var memberEvidence = UnorderedTable<UsageEvidence>()
}

/// Live donations of one intent with the same predicted parameters in the current hour:
/// the key they share and their indices in the hour's bucket, oldest first.
struct PatternGroup {
    var key: String
    /// `StringHash.of(key)`.
    var hash: UInt64
    var records: [Int]
}

/// Intent names with their `StringHash`es, so that a record's intent is looked for
/// by its hash before its name is compared.
struct IntentList: Equatable {
    private(set) var names: [String] = []
    private(set) var hashes: [UInt64] = []

    init() {}

    init(_ names: [String]) {
        self.names = names
        hashes = names.map(StringHash.of)
    }

    var isEmpty: Bool { names.isEmpty }

    /// Whether `name`, whose `StringHash` is `hash`, is in the list.
    func contains(_ name: String, hash: UInt64) -> Bool {
        for k in hashes.indices where hashes[k] == hash && names[k] == name { return true }
        return false
    }
}

extension [PatternGroup] {
    /// Adds a record to the group of its key, whose `StringHash` is `hash` (groups are
    /// few: a linear search).
    mutating func add(key: String, hash: UInt64, record: Int) {
        if let g = firstIndex(where: { $0.hash == hash && $0.key == key }) {
            self[g].records.append(record)
        } else {
            append(PatternGroup(key: key, hash: hash, records: [record]))
        }
    }
}

/// The usage records behind a signal, and the first instant at which they may change by
/// time alone: the hour's end, or the first of them leaving the pattern window.
struct UsageEvidence: Hashable {
    var seqs: [UInt64]
    /// When the first record it looked at leaves the window.
    var leaves: Int64
    /// The end of the hour it is asked in (a cache's entry keeps the one it was made in).
    var hourEnd: Int64
    var until: Int64 { min(leaves, hourEnd) }
}

/// How many times each hour's usage records changed (appended, pruned, deleted), and the
/// usage caches put aside at the end of their hours (derived; never checkpointed).
struct UsageEdits {
    var counts = [UInt64](repeating: 0, count: 24)
    var aside = [UsageCache?](repeating: nil, count: 24)
    /// The last edit of each UTC day's records (`DeviceModel.usageDay`), numbered in order
    /// since the engine was made or restored; a day without one has not changed since.
    private(set) var days = DayEdits()

    /// Notes that a record of `day` was added, deleted or dropped.
    mutating func touch(day: Int64) {
        days.touch(day)
    }
}

/// The last edit of each day, in day order: records are mostly added to the latest day
/// and dropped from the oldest, so most edits touch an end.
struct DayEdits: Sendable {
    private var days: [Int64] = []
    private var edits: [UInt64] = []
    private var last: UInt64 = 0

    /// The last edit of `day`, 0 when it has none.
    subscript(day: Int64) -> UInt64 {
        let i = position(day)
        return i < days.count && days[i] == day ? edits[i] : 0
    }

    mutating func touch(_ day: Int64) {
        last &+= 1
        if let end = days.last, end == day {
            edits[edits.count - 1] = last
        } else if days.last.map({ $0 < day }) ?? true {
            days.append(day)
            edits.append(last)
        } else {
            let i = position(day)
            if i < days.count && days[i] == day {
                edits[i] = last
            } else {
                days.insert(day, at: i)
                edits.insert(last, at: i)
            }
        }
    }

    /// The first position whose day is not before `day`.
    private func position(_ day: Int64) -> Int {
        days.partitionPoint { $0 < day }
    }
}

extension DeviceEngine {
    /// Brings `caches.usage` up to the current instant: from the cache of this hour (the
    /// current one or the one put aside) when its records did not change, else anew.
    mutating func refreshUsage() {
        let now = state.now
        let current = caches.usage.edits == caches.usageEdits.counts[caches.usage.hour]
        if current && caches.usage.from <= now && now < caches.usage.until { return }
        let hour = state.clock.hour(at: now)
        if current && caches.usage.hour != hour { caches.usageEdits.aside[caches.usage.hour] = caches.usage }
        if current && caches.usage.hour == hour && caches.usage.from <= now {
            // Taken out of `self`, so that it is changed in place.
            var cache = UsageCache()
            swap(&cache, &caches.usage)
            advance(&cache, to: now)
            swap(&cache, &caches.usage)
        } else if caches.usageEdits.aside[hour]?.edits == caches.usageEdits.counts[hour],
            caches.usageEdits.aside[hour]!.from <= now
        {
            var aside = caches.usageEdits.aside[hour].take()!
            advance(&aside, to: now)
            caches.usage = aside
        } else {
            var c = UsageCache()
            c.edits = caches.usageEdits.counts[hour]
            c.from = now
            let window = patternWindowMicros
            c.hour = hour
            var until = state.clock.nextHour(after: now)
            c.hourEnd = until
            let bucket = state.usage[hour]
            for i in bucket.indices {
                let time = bucket[i].time
                guard bucket[i].deletedBy == nil, time > now - window, time <= now else { continue }
                c.live.append(i)
                until = min(until, time + window)
            }
            c.until = until
            caches.usage = c
        }
    }

    /// Moves a cache of this hour whose records did not change on to `now`: records that
    /// left the window since leave it, and what rested on them.
    mutating func advance(_ c: inout UsageCache, to now: Int64) {
        let window = patternWindowMicros
        let horizon = now - window
        let bucket = state.usage[c.hour]
        c.from = now
        c.hourEnd = state.clock.nextHour(after: now)
        // A bucket's records are in time order, and so are the live ones and each group's:
        // those that left the window are a prefix of each.
        let gone = c.live.partitionPoint { bucket[$0].time <= horizon }
        if gone > 0 { c.live.removeFirst(gone) }
        c.until = c.live.first.map { min(c.hourEnd, bucket[$0].time + window) } ?? c.hourEnd
        c.memberEvidence.removeAll { $0.leaves <= now }
        c.appEvidence.removeAll { $0.leaves <= now }
        if var groups = c.groups {
            c.groups = nil
            var left = false
            for g in groups.indices {
                let old = groups[g].records.partitionPoint { bucket[$0].time <= horizon }
                guard old > 0 else { continue }
                groups[g].records.removeFirst(old)
                left = true
            }
            if left {
                groups.removeAll { $0.records.isEmpty }
                c.patterns = nil
            }
            c.groups = groups
        }
    }

    /// Counts the record just appended to `state.usage[hour]`, and brings a current
    /// `caches.usage` up to date with it instead of letting the next query rebuild it: only
    /// what the record changes is dropped (its app's usage, the evidence of members with
    /// its intent, the patterns of its intent).
    mutating func noteUsageAppended(hour: Int) {
        let wasCurrent = caches.usage.hour == hour && caches.usage.edits == caches.usageEdits.counts[hour]
        caches.usageEdits.counts[hour] &+= 1
        guard wasCurrent, caches.usage.from <= state.now, state.now < caches.usage.until else { return }
        let index = state.usage[hour].count - 1
        let record = state.usage[hour][index]
        caches.usage.edits = caches.usageEdits.counts[hour]
        caches.usage.live.append(index)
        caches.usage.appEvidence[record.app] = nil
        guard let intent = record.intent else { return }
        if caches.usage.patternIntents.contains(intent, hash: record.intentHash) {
            caches.usage.patterns = nil
            if caches.usage.groups != nil, let key = record.patternKey {
                caches.usage.groups!.add(key: key, hash: record.patternHash, record: index)
            }
        }
        // The members configured with its intent whose donations are known: it is one of
        // them when its predicted parameters match the member's.
        let window = patternWindowMicros
        for s in state.stacks {
            for m in s.members where m.intent == intent {
                guard var known = caches.usage.memberEvidence[m.widget.instance],
                    parametersMatch(donated: record.parameters, widget: m.parameters)
                else { continue }
                known.seqs.append(record.seq)
                known.leaves = min(known.leaves, record.time + window)
                caches.usage.memberEvidence[m.widget.instance] = known
            }
        }
    }

    /// Counts the `count` records that left the front of `state.usage[hour]`, and keeps a
    /// current `caches.usage` valid: they had left the pattern window, so none of them was
    /// live while the cache holds, and the live records' indices move down by `count`.
    mutating func noteUsagePruned(hour: Int, count: Int) {
        let wasCurrent = caches.usage.hour == hour && caches.usage.edits == caches.usageEdits.counts[hour]
        caches.usageEdits.counts[hour] &+= 1
        guard wasCurrent, caches.usage.live.allSatisfy({ $0 >= count }),
            caches.usage.patterns?.allSatisfy({ $0.record >= count }) ?? true,
            caches.usage.groups?.allSatisfy({ $0.records.allSatisfy { $0 >= count } }) ?? true
        else { return }
        for i in caches.usage.live.indices { caches.usage.live[i] -= count }
        caches.usage.patterns = caches.usage.patterns?.map { ($0.key, $0.record - count, $0.evidence) }
        if caches.usage.groups != nil {
            for g in caches.usage.groups!.indices {
                for k in caches.usage.groups![g].records.indices { caches.usage.groups![g].records[k] -= count }
            }
        }
        caches.usage.edits = caches.usageEdits.counts[hour]
    }

    /// The donation patterns of this hour that reach the minimum, grouped by intent and
    /// predicted parameters, in key order.
    /// Only donations of `intents` are grouped (the intents whose widget no stack holds,
    /// as of `epoch`, the `caches.placementEpoch` that names them).
    mutating func usagePatterns(of intents: IntentList, epoch: UInt64) -> [(
        key: String, record: Int, evidence: [UInt64]
    )] {
        refreshUsage()
        if caches.usage.patternEpoch != epoch {
            // A new plan with the same open intents groups the same records.
            if caches.usage.patternIntents == intents {
                caches.usage.patternEpoch = epoch
            } else {
                caches.usage.groups = nil
            }
        }
        if let known = caches.usage.patterns, caches.usage.groups != nil { return known }
        if caches.usage.groups == nil {
            var groups = [PatternGroup]()
            let bucket = state.usage[caches.usage.hour]
            for i in caches.usage.live {
                guard let intent = bucket[i].intent, intents.contains(intent, hash: bucket[i].intentHash),
                    let key = bucket[i].patternKey
                else { continue }
                groups.add(key: key, hash: bucket[i].patternHash, record: i)
            }
            caches.usage.groups = groups
            caches.usage.patternIntents = intents
            caches.usage.patternEpoch = epoch
        }
        var out = [(key: String, record: Int, evidence: [UInt64])]()
        let bucket = state.usage[caches.usage.hour]
        for group in caches.usage.groups! where group.records.count >= parameters.usagePatternMinimum {
            out.append((group.key, group.records[0], group.records.map { bucket[$0].seq }))
        }
        out.sort { $0.key < $1.key }
        caches.usage.patterns = out
        return out
    }

    /// The app's uses and donations this hour, when they reach the minimum; else empty.
    mutating func appUsage(_ app: String) -> UsageEvidence {
        refreshUsage()
        if var known = caches.usage.appEvidence[app] {
            known.hourEnd = caches.usage.hourEnd
            return known
        }
        let evidence = usageEvidence { bucket, i in bucket[i].app == app }
        caches.usage.appEvidence[app] = evidence
        return evidence
    }

    /// Donations of `intent` this hour whose predicted parameters match a widget's
    /// configuration (D1), when they reach the minimum; empty otherwise.
    mutating func memberPattern(instance: String, intent: String, parameters: [String: String]) -> UsageEvidence {
        refreshUsage()
        var evidence: UsageEvidence
        if let known = caches.usage.memberEvidence[instance] {
            evidence = known
            evidence.hourEnd = caches.usage.hourEnd
        } else {
            let intentHash = StringHash.of(intent)
            evidence = usageEvidence(reachingMinimum: false) { bucket, i in
                bucket[i].intentHash == intentHash && bucket[i].intent == intent
                    && parametersMatch(donated: bucket[i].parameters, widget: parameters)
            }
            caches.usage.memberEvidence[instance] = evidence
        }
        if evidence.seqs.count < self.parameters.usagePatternMinimum { evidence.seqs = [] }
        return evidence
    }

    /// The live records of this hour that pass `counts` (given the hour's records and an
    /// index, so that it reads fields without copying records), none unless they reach
    /// the minimum when `reachingMinimum`; valid until the hour ends or the first of them
    /// leaves the window.
    func usageEvidence(reachingMinimum: Bool = true, _ counts: ([UsageRecord], Int) -> Bool) -> UsageEvidence {
        let bucket = state.usage[caches.usage.hour]
        let window = patternWindowMicros
        var seqs = [UInt64]()
        var leaves = Int64.max
        for i in caches.usage.live where counts(bucket, i) {
            seqs.append(bucket[i].seq)
            leaves = min(leaves, bucket[i].time + window)
        }
        if reachingMinimum && seqs.count < parameters.usagePatternMinimum { seqs = [] }
        return UsageEvidence(seqs: seqs, leaves: leaves, hourEnd: caches.usage.hourEnd)
    }

    /// Forgets every member's donations in the current hour's view and in those put aside:
    /// they were matched against configurations a stack change may have replaced.
    mutating func forgetMemberEvidence() {
        caches.usage.memberEvidence.removeAll()
        for h in caches.usageEdits.aside.indices where caches.usageEdits.aside[h] != nil {
            caches.usageEdits.aside[h]!.memberEvidence.removeAll()
        }
    }
}

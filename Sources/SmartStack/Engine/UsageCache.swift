/// The usage model's view of the current local hour: which donations and app uses of
/// this hour of day are live (not deleted, within the pattern window), and the patterns
/// they form, worked out lazily. Derived from the state, rebuilt when the usage or the
/// hour changes; never checkpointed.
struct UsageCache {
    var version: UInt64 = .max
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
    /// The intents `patterns` was grouped for, and the `placementEpoch` they are of.
    var patternIntents: Set<String> = []
    var patternEpoch: UInt64 = .max
    /// Per app, its uses and donations of this hour when they reach the minimum (else
    /// empty), and until when that holds.
    var appEvidence: [String: UsageEvidence] = [:]
    /// Per member instance, the matching donations (D1) when they reach the minimum, and
    /// until when that holds.
    var memberEvidence: [String: UsageEvidence] = [:]
}

/// Live donations of one intent with the same predicted parameters in the current hour:
/// the key they share and their indices in the hour's bucket, oldest first.
struct PatternGroup {
    var key: String
    var records: [Int]
}

extension [PatternGroup] {
    /// Adds a record to the group of its key (groups are few: a linear search).
    mutating func add(key: String, record: Int) {
        if let g = firstIndex(where: { $0.key == key }) {
            self[g].records.append(record)
        } else {
            append(PatternGroup(key: key, records: [record]))
        }
    }
}

/// The usage records behind a signal, and the first instant at which they may change by
/// time alone: the hour's end, or the first of them leaving the pattern window.
struct UsageEvidence {
    var seqs: [UInt64]
    var until: Int64
}

extension DeviceEngine {
    /// Brings `usageCache` up to the current instant.
    mutating func refreshUsage() {
        let now = state.now
        if usageCache.version == state.usageVersion && usageCache.from <= now && now < usageCache.until { return }
        var c = UsageCache()
        c.version = state.usageVersion
        c.from = now
        let window = Int64(p.usagePatternWindowDays) * 86_400_000_000
        c.hour = state.clock.hour(at: now)
        var until = state.clock.nextHour(after: now)
        c.hourEnd = until
        let bucket = state.usage[c.hour]
        for i in bucket.indices {
            let time = bucket[i].time
            guard bucket[i].deletedBy == nil, time > now - window, time <= now else { continue }
            c.live.append(i)
            until = min(until, time + window)
        }
        c.until = until
        if usageCache.version == state.usageVersion && usageCache.hour == c.hour && usageCache.hourEnd == c.hourEnd {
            // Time alone moved on within the hour: evidence that still holds stays.
            c.memberEvidence = usageCache.memberEvidence.filter { now < $0.value.until }
            c.appEvidence = usageCache.appEvidence.filter { now < $0.value.until }
            if var groups = usageCache.groups {
                // Donations that left the window leave their groups.
                let before = groups.reduce(0) { $0 + $1.records.count }
                for g in groups.indices { groups[g].records.removeAll { bucket[$0].time <= now - window } }
                groups.removeAll { $0.records.isEmpty }
                c.patterns = groups.reduce(0, { $0 + $1.records.count }) == before ? usageCache.patterns : nil
                c.groups = groups
                c.patternIntents = usageCache.patternIntents
                c.patternEpoch = usageCache.patternEpoch
            }
        }
        usageCache = c
    }

    /// Brings a current `usageCache` up to date with the record just appended to
    /// `state.usage[hour]` (and counted by the version bump after `previousVersion`)
    /// instead of letting the next query rebuild it: only what the record changes is
    /// dropped (its app's usage, the evidence of members with its intent, the patterns
    /// of its intent).
    mutating func noteUsageAppended(hour: Int, previousVersion: UInt64) {
        guard usageCache.version == previousVersion, usageCache.hour == hour,
              usageCache.from <= state.now, state.now < usageCache.until else { return }
        let index = state.usage[hour].count - 1
        let record = state.usage[hour][index]
        usageCache.version = state.usageVersion
        usageCache.live.append(index)
        usageCache.appEvidence[record.app] = nil
        guard let intent = record.intent else { return }
        if usageCache.patternIntents.contains(intent) {
            usageCache.patterns = nil
            if usageCache.groups != nil, let key = record.patternKey {
                usageCache.groups!.add(key: key, record: index)
            }
        }
        for s in state.stacks {
            for m in s.members where m.intent == intent { usageCache.memberEvidence[m.widget.instance] = nil }
        }
    }

    /// Keeps a current `usageCache` valid after `count` records left the front of
    /// `state.usage[hour]` (and the version bump after `previousVersion` counted it):
    /// they had left the pattern window, so none of them was live while the cache holds,
    /// and the live records' indices move down by `count`.
    mutating func noteUsagePruned(hour: Int, count: Int, previousVersion: UInt64) {
        guard usageCache.version == previousVersion else { return }
        if usageCache.hour == hour {
            guard usageCache.live.allSatisfy({ $0 >= count }), usageCache.patterns?.allSatisfy({ $0.record >= count }) ?? true,
                  usageCache.groups?.allSatisfy({ $0.records.allSatisfy { $0 >= count } }) ?? true else {
                usageCache.version = .max
                return
            }
            for i in usageCache.live.indices { usageCache.live[i] -= count }
            usageCache.patterns = usageCache.patterns?.map { ($0.key, $0.record - count, $0.evidence) }
            if usageCache.groups != nil {
                for g in usageCache.groups!.indices {
                    for k in usageCache.groups![g].records.indices { usageCache.groups![g].records[k] -= count }
                }
            }
        }
        usageCache.version = state.usageVersion
    }

    /// The donation patterns of this hour that reach the minimum, grouped by intent and
    /// predicted parameters, in key order.
    /// Only donations of `intents` are grouped (the intents whose widget no stack holds,
    /// as of `epoch`, the `placementEpoch` that names them).
    /// `intentHashes` holds `UsageRecord.hash` of each of them.
    mutating func usagePatterns(of intents: Set<String>, hashes intentHashes: [UInt64], epoch: UInt64) -> [(key: String, record: Int, evidence: [UInt64])] {
        refreshUsage()
        if usageCache.patternEpoch != epoch { usageCache.groups = nil }
        if let known = usageCache.patterns, usageCache.groups != nil { return known }
        if usageCache.groups == nil {
            var groups = [PatternGroup]()
            let bucket = state.usage[usageCache.hour]
            for i in usageCache.live {
                guard intentHashes.contains(bucket[i].intentHash), let intent = bucket[i].intent, intents.contains(intent),
                      let key = bucket[i].patternKey else { continue }
                groups.add(key: key, record: i)
            }
            usageCache.groups = groups
            usageCache.patternIntents = intents
            usageCache.patternEpoch = epoch
        }
        var out = [(key: String, record: Int, evidence: [UInt64])]()
        let bucket = state.usage[usageCache.hour]
        for group in usageCache.groups! where group.records.count >= p.usagePatternMinimum {
            out.append((group.key, group.records[0], group.records.map { bucket[$0].seq }))
        }
        out.sort { $0.key < $1.key }
        usageCache.patterns = out
        return out
    }

    /// The app's uses and donations this hour, when they reach the minimum; else empty.
    mutating func appUsage(_ app: String) -> UsageEvidence {
        refreshUsage()
        if let known = usageCache.appEvidence[app] { return known }
        let evidence = usageEvidence { bucket, i in bucket[i].app == app }
        usageCache.appEvidence[app] = evidence
        return evidence
    }

    /// Donations of `intent` this hour whose predicted parameters match a widget's
    /// configuration (D1), when they reach the minimum; empty otherwise.
    mutating func memberPattern(instance: String, intent: String, parameters: [String: String]) -> UsageEvidence {
        refreshUsage()
        if let known = usageCache.memberEvidence[instance] { return known }
        let intentHash = UsageRecord.hash(intent)
        let evidence = usageEvidence { bucket, i in
            bucket[i].intentHash == intentHash && bucket[i].intent == intent && parametersMatch(donated: bucket[i].parameters, widget: parameters)
        }
        usageCache.memberEvidence[instance] = evidence
        return evidence
    }

    /// The live records of this hour that pass `counts` (given the hour's records and an
    /// index, so that it reads fields without copying records), when they reach the
    /// minimum; valid until the hour ends or the first of them leaves the window.
    func usageEvidence(_ counts: ([UsageRecord], Int) -> Bool) -> UsageEvidence {
        let bucket = state.usage[usageCache.hour]
        let window = Int64(p.usagePatternWindowDays) * 86_400_000_000
        var seqs = [UInt64]()
        var until = usageCache.hourEnd
        for i in usageCache.live where counts(bucket, i) {
            seqs.append(bucket[i].seq)
            until = min(until, bucket[i].time + window)
        }
        if seqs.count < p.usagePatternMinimum { seqs = [] }
        return UsageEvidence(seqs: seqs, until: until)
    }
}

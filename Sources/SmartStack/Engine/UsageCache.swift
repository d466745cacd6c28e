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
    /// Indices into `state.usage[hour]` of the live records, oldest first.
    var live: [Int] = []
    /// Donation patterns that reach the minimum: (intent + parameters key, a record, evidence).
    var patterns: [(key: String, record: Int, evidence: [UInt64])]?
    /// The intents `patterns` was grouped for.
    var patternIntents: Set<String> = []
    /// Per app, its uses and donations of this hour when they reach the minimum (else empty).
    var appEvidence: [String: [UInt64]] = [:]
    /// Per member instance, the matching donations (D1) when they reach the minimum.
    var memberEvidence: [String: [UInt64]] = [:]
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
        let bucket = state.usage[c.hour]
        for i in bucket.indices {
            let time = bucket[i].time
            guard bucket[i].deletedBy == nil, time > now - window, time <= now else { continue }
            c.live.append(i)
            until = min(until, time + window)
        }
        c.until = until
        usageCache = c
    }

    /// The donation patterns of this hour that reach the minimum, grouped by intent and
    /// predicted parameters, in key order.
    /// Only donations of `intents` are grouped (the intents whose widget no stack holds).
    mutating func usagePatterns(of intents: Set<String>) -> [(key: String, record: Int, evidence: [UInt64])] {
        refreshUsage()
        if let known = usageCache.patterns, usageCache.patternIntents == intents { return known }
        var groups = [String: (Int, [UInt64])]()
        let bucket = state.usage[usageCache.hour]
        for i in usageCache.live {
            guard let intent = bucket[i].intent, intents.contains(intent), let key = bucket[i].patternKey else { continue }
            groups[key, default: (i, [])].1.append(bucket[i].seq)
        }
        var out = [(key: String, record: Int, evidence: [UInt64])]()
        for key in groups.keys.sorted() {
            let (record, evidence) = groups[key]!
            if evidence.count >= p.usagePatternMinimum { out.append((key, record, evidence)) }
        }
        usageCache.patterns = out
        usageCache.patternIntents = intents
        return out
    }

    /// The app's uses and donations this hour, when they reach the minimum; else empty.
    mutating func appUsage(_ app: String) -> [UInt64] {
        refreshUsage()
        if let known = usageCache.appEvidence[app] { return known }
        let bucket = state.usage[usageCache.hour]
        var seqs = [UInt64]()
        for i in usageCache.live where bucket[i].app == app { seqs.append(bucket[i].seq) }
        if seqs.count < p.usagePatternMinimum { seqs = [] }
        usageCache.appEvidence[app] = seqs
        return seqs
    }

    /// Donations of `intent` this hour whose predicted parameters match a widget's
    /// configuration (D1), when they reach the minimum; empty otherwise.
    mutating func memberPattern(instance: String, intent: String, parameters: [String: String]) -> [UInt64] {
        refreshUsage()
        if let known = usageCache.memberEvidence[instance] { return known }
        let bucket = state.usage[usageCache.hour]
        var seqs = [UInt64]()
        for i in usageCache.live where bucket[i].intent == intent && parametersMatch(donated: bucket[i].parameters, widget: parameters) {
            seqs.append(bucket[i].seq)
        }
        if seqs.count < p.usagePatternMinimum { seqs = [] }
        usageCache.memberEvidence[instance] = seqs
        return seqs
    }
}

import RecordFormat

// The checkpoint layout of every piece of engine state. Fields are written in
// declaration order; a change here is a change of `DeviceEngine.engineVersion`.

extension WidgetIdentity {
    func write(_ w: inout StateWriter) {
        w.string(instance)
        w.string(kind)
        w.string(app)
    }
    init(_ r: inout StateReader) throws {
        self.init(instance: try r.string(), kind: try r.string(), app: try r.string())
    }
}

extension Reason {
    func write(_ w: inout StateWriter) {
        w.string(code)
        w.byte(basis == .documented ? 0 : 1)
        w.string(rule)
        w.string(detail)
        w.array(events) { $0.uint($1) }
        w.array(parameters) { $0.string($1) }
    }
    init(_ r: inout StateReader) throws {
        let code = try r.string()
        let basis: ReasonBasis = try r.byte() == 0 ? .documented : .policy
        let rule = try r.string()
        let detail = try r.string()
        let events = try r.array { try $0.uint() }
        guard ReasonCode(rawValue: code) != nil else { throw StateReader.Malformed(offset: r.offset) }
        self.init(code: code, basis, rule, detail, events: events, parameters: try r.array { try $0.string() })
    }
}

extension Decision {
    static let actions: [DecisionAction] = [.rotate, .scroll, .suggest, .unsuggest, .keep]
    func write(_ w: inout StateWriter) {
        w.time(time)
        w.string(device)
        w.string(stack)
        w.byte(UInt8(Decision.actions.firstIndex(of: action)!))
        widget.write(&w)
        w.optional(from) { $1.write(&$0) }
        w.optional(top) { $1.write(&$0) }
        w.array(reasons) { $1.write(&$0) }
        w.array(assumptions) { $1.write(&$0) }
    }
    init(_ r: inout StateReader) throws {
        time = try r.time()
        device = try r.string()
        stack = try r.string()
        let a = Int(try r.byte())
        guard a < Decision.actions.count else { throw StateReader.Malformed(offset: r.offset) }
        action = Decision.actions[a]
        widget = try WidgetIdentity(&r)
        from = try r.optional { try WidgetIdentity(&$0) }
        top = try r.optional { try WidgetIdentity(&$0) }
        reasons = try r.array { try Reason(&$0) }
        assumptions = try r.array { try Assumption(&$0) }
    }
}

extension Assumption {
    func write(_ w: inout StateWriter) {
        w.string(code)
        w.string(stack)
        w.optional(instance) { $0.string($1) }
        w.array(events) { $0.uint($1) }
        w.string(detail)
    }
    init(_ r: inout StateReader) throws {
        self.init(
            code: try r.string(), stack: try r.string(), instance: try r.optional { try $0.string() },
            events: try r.array { try $0.uint() }, detail: try r.string())
    }
}

extension StackLayoutSource {
    func write(_ w: inout StateWriter) {
        w.uint(seq)
        w.int(time)
        w.byte((assumed ? 1 : 0) | (inferred ? 2 : 0) | (timeUncertain ? 4 : 0) | (topAssumed ? 8 : 0))
        w.array(unrecordedSwitches) { $0.string($1) }
        w.array(conflict) { $0.uint($1) }
        w.string(conflictDetail)
    }
    init(_ r: inout StateReader) throws {
        seq = try r.uint()
        time = try r.int()
        let flags = try r.byte()
        assumed = flags & 1 != 0
        inferred = flags & 2 != 0
        timeUncertain = flags & 4 != 0
        topAssumed = flags & 8 != 0
        unrecordedSwitches = try r.array { try $0.string() }
        conflict = try r.array { try $0.uint() }
        conflictDetail = try r.string()
    }
}

extension Clue {
    func write(_ w: inout StateWriter) {
        switch self {
        case .window(let from, let to, let kind):
            w.byte(0)
            w.int(from)
            w.int(to)
            w.optional(kind) { $0.string($1) }
        case .state(let key, let permission):
            w.byte(1)
            w.string(key)
            w.optional(permission) { $0.string($1) }
        }
    }
    init(_ r: inout StateReader) throws {
        switch try r.byte() {
        case 0: self = .window(from: try r.int(), to: try r.int(), dateKind: try r.optional { try $0.string() })
        case 1: self = .state(key: try r.string(), permission: try r.optional { try $0.string() })
        default: throw StateReader.Malformed(offset: r.offset)
        }
    }
}

extension Member {
    func write(_ w: inout StateWriter) {
        widget.write(&w)
        w.string(family)
        w.optional(intent) { $0.string($1) }
        w.map(parameters) { $0.string($1) }
        w.optional(pinnedAt) { $0.int(Int64($1)) }
        w.uint(addedSeq)
        w.optional(extensionBundle) { $0.string($1) }
    }
    init(_ r: inout StateReader) throws {
        widget = try WidgetIdentity(&r)
        family = try r.string()
        intent = try r.optional { try $0.string() }
        parameters = try r.map { try $0.string() }
        pinnedAt = try r.optional { Int(try $0.int()) }
        addedSeq = try r.uint()
        extensionBundle = try r.optional { try $0.string() }
    }
}

extension ShownSuggestion {
    func write(_ w: inout StateWriter) {
        widget.write(&w)
        w.string(source)
        w.int(since)
        w.array(reasons) { $1.write(&$0) }
        w.optional(group) { $0.string($1) }
        w.double(rank)
    }
    init(_ r: inout StateReader) throws {
        widget = try WidgetIdentity(&r)
        source = try r.string()
        since = try r.int()
        reasons = try r.array { try Reason(&$0) }
        group = try r.optional { try $0.string() }
        rank = try r.double()
    }
}

extension StackState {
    func write(_ w: inout StateWriter) {
        w.string(id)
        w.string(platform)
        w.string(family)
        w.bool(smartRotate)
        w.bool(widgetSuggestions)
        w.array(members) { $1.write(&$0) }
        w.array(suggestions) { $1.write(&$0) }
        w.optional(top) { $0.string($1) }
        w.optional(topDecision) { $1.write(&$0) }
        w.optional(restingTop) { $0.string($1) }
        w.int(holdUntil)
        dismissedUntil.write(&w) { $0.int($1) }
        w.uint(createdSeq)
        w.uint(settingsSeq)
        observedLayout.write(&w)
    }
    init(_ r: inout StateReader) throws {
        id = try r.string()
        platform = try r.string()
        family = try r.string()
        smartRotate = try r.bool()
        widgetSuggestions = try r.bool()
        members = try r.array { try Member(&$0) }
        suggestions = try r.array { try ShownSuggestion(&$0) }
        top = try r.optional { try $0.string() }
        topDecision = try r.optional { try Decision(&$0) }
        restingTop = try r.optional { try $0.string() }
        holdUntil = try r.int()
        dismissedUntil = try SortedTable(&r) { try $0.int() }
        createdSeq = try r.uint()
        settingsSeq = try r.uint()
        observedLayout = try StackLayoutSource(&r)
    }
}

extension ProviderKey: Comparable {
    static func < (a: ProviderKey, b: ProviderKey) -> Bool {
        (a.app, a.kind, a.instance ?? "") < (b.app, b.kind, b.instance ?? "")
    }
    func write(_ w: inout StateWriter) {
        w.string(app)
        w.string(kind)
        w.optional(instance) { $0.string($1) }
    }
    init(_ r: inout StateReader) throws {
        app = try r.string()
        kind = try r.string()
        instance = try r.optional { try $0.string() }
    }
}

extension TimelineBook {
    func write(_ w: inout StateWriter) {
        let keys = slots.sorted { $0.key < $1.key }
        w.varint(UInt64(records.count { $0.list != nil }))
        for (key, slot) in keys {
            guard let list = records[slot].list else { continue }
            key.write(&w)
            w.int(list.delivered)
            w.entries(list.entries, after: list.delivered)
        }
        w.varint(UInt64(records.count { $0.spans != nil }))
        for (key, slot) in keys {
            guard let spans = records[slot].spans else { continue }
            key.write(&w)
            w.array(spans) { w, s in
                w.int(s.delivered)
                w.decimal(s.min)
                w.decimal(s.max)
            }
        }
        w.varint(UInt64(records.count { $0.observed != nil }))
        for (key, slot) in keys {
            guard let observed = records[slot].observed else { continue }
            key.write(&w)
            w.entries(observed, after: 0)
        }
    }
    init(_ r: inout StateReader) throws {
        self.init()
        for (key, list) in try r.array({ r -> (ProviderKey, EntryList) in
            let key = try ProviderKey(&r)
            var list = EntryList()
            list.delivered = try r.int()
            list.entries = try r.entries(after: list.delivered)
            return (key, list)
        }) { setList(list, for: key) }
        instanceLists = slots.keys.count { $0.instance != nil }
        for (key, spans) in try r.array({ r -> (ProviderKey, [ScoreSpan]) in
            (
                try ProviderKey(&r),
                try r.array { r in
                    ScoreSpan(delivered: try r.int(), min: try r.presentDecimal(), max: try r.presentDecimal())
                }
            )
        }) {
            guard key.instance == nil else { throw StateReader.Malformed(offset: r.offset) }
            setSpans(spans, for: key)
        }
        for (key, entries) in try r.array({ r -> (ProviderKey, [StoredEntry]) in
            (try ProviderKey(&r), try r.entries(after: 0))
        }) {
            guard key.instance == nil else { throw StateReader.Malformed(offset: r.offset) }
            setObserved(entries, for: key)
        }
    }
}

extension SortedTable {
    func write(_ w: inout StateWriter, _ value: (inout StateWriter, Value) -> Void) {
        w.varint(UInt64(keys.count))
        for (k, v) in entries {
            w.string(k)
            value(&w, v)
        }
    }
    init(_ r: inout StateReader, _ value: (inout StateReader) throws -> Value) throws {
        let n = try r.length(atMost: r.bytes.count)
        var keys = [String]()
        var values = [Value]()
        keys.reserveCapacity(n)
        values.reserveCapacity(n)
        // Written in key order: taken as they come, and indexed once.
        var ascending = true
        for _ in 0..<n {
            let k = try r.string()
            if let last = keys.last, !(last < k) { ascending = false }
            keys.append(k)
            values.append(try value(&r))
        }
        if ascending {
            self.init(ascendingKeys: keys, values: values)
        } else {
            self.init()
            for (k, v) in zip(keys, values) { self[k] = v }
        }
    }
}

extension ContextSet {
    func write(_ w: inout StateWriter) {
        w.uint(seq)
        w.array(signals) { w, s in
            w.string(s.kind)
            w.optional(s.intent) { $0.string($1) }
            w.optional(s.parameters) { $0.map($1) { $0.string($1) } }
            w.optional(s.clue) { $1.write(&$0) }
            w.optional(s.group) { $0.string($1) }
        }
    }
    init(_ r: inout StateReader) throws {
        seq = try r.uint()
        signals = try r.array { r in
            ContextSignal(
                kind: try r.string(), intent: try r.optional { try $0.string() },
                parameters: try r.optional { try $0.map { try $0.string() } },
                clue: try r.optional { try Clue(&$0) }, group: try r.optional { try $0.string() })
        }
    }
}

extension UsageRecord {
    /// Writes the record `r` points to, reading its fields in place, within its hour's
    /// bucket: the hour is the bucket's, time and seq are deltas from the previous record
    /// of the bucket, and the app, intent and parameters are the `signature`th entry of the
    /// day's table (`UsageSignature.write`).
    static func write(
        _ r: UnsafePointer<UsageRecord>, _ w: inout StateWriter, after previous: (time: Int64, seq: UInt64),
        signature: Int
    ) {
        w.int(r.pointee.time &- previous.time)
        w.int(Int64(bitPattern: r.pointee.seq &- previous.seq))
        w.varint(UInt64(signature))
        w.optionalString(r.pointee.donationId)
        w.optionalString(r.pointee.groupIdentifier)
        if let seq = r.pointee.deletedBy {
            w.byte(1)
            w.uint(seq)
        } else {
            w.byte(0)
        }
    }
    /// Reads the record `r` is at (written by `write`) and appends it to `bucket`; its
    /// time and seq, the next record's base.
    static func append(
        _ r: inout StateReader, hour: Int, after previous: (time: Int64, seq: UInt64), table: [UsageSignature],
        to bucket: inout [UsageRecord]
    ) throws -> (time: Int64, seq: UInt64) {
        // The fields are read first, then the record is made and appended.
        let time = previous.time &+ (try r.int())
        let seq = previous.seq &+ UInt64(bitPattern: try r.int())
        let entry = Int(truncatingIfNeeded: try r.varint())
        guard entry >= 0, entry < table.count else { throw StateReader.Malformed(offset: r.offset) }
        let donationId = try r.optionalString()
        let groupIdentifier = try r.optionalString()
        let deletedBy: UInt64? = try r.byte() == 0 ? nil : try r.uint()
        bucket.append(
            UsageRecord(
                time: time, hour: hour, seq: seq, signature: table[entry], donationId: donationId,
                groupIdentifier: groupIdentifier, deletedBy: deletedBy))
        return (time, seq)
    }
}

extension DeviceModel {
    /// The day a usage record is written under: its UTC day.
    static func usageDay(_ time: Int64) -> Int64 {
        time >= 0 ? time / 86_400_000_000 : (time - 86_399_999_999) / 86_400_000_000
    }

    /// The usage records, day by day: each day a section (its strings its own) holding
    /// the table of the day's distinct signatures (app, intent and parameters, in order of
    /// first use), then, hour by hour, that hour's records of the day, each naming its
    /// signature by its place in the table: a state restored reads each signature once a
    /// day rather than once a record. Each section takes, from every hour,
    /// the run of records next in line that fall on the earliest day next in line, so
    /// reading the sections in order and appending each hour's runs gives back every
    /// hour's records in their order (records are appended at the engine's clock, which
    /// never goes back, so each day comes once).
    ///
    /// A day whose records are all at or before `horizon` (the start of the pattern
    /// window) is left out: no answer reads them again, and the engine keeps them only
    /// until a record of their hour comes. Leaving out whole days only keeps each day's
    /// bytes a function of its records.
    func writeUsageByDay(
        _ w: inout StateWriter, reusing days: inout UsageDays, dayEdits: DayEdits, horizon: Int64
    ) {
        days.beginState()
        var sections = [(day: Int64, bytes: [UInt8], from: Int?)]()
        var start = [Int](repeating: 0, count: 24)
        while true {
            var day = Int64.max
            for hour in 0..<24 where start[hour] < usage[hour].count {
                day = min(day, DeviceModel.usageDay(usage[hour][start[hour]].time))
            }
            if day == .max { break }
            var end = start
            var count = 0
            for hour in 0..<24 {
                // Read in place: copying a record would count references to its strings.
                usage[hour].withUnsafeBufferPointer { bucket in
                    while end[hour] < bucket.count, DeviceModel.usageDay(bucket[end[hour]].time) == day {
                        end[hour] += 1
                    }
                }
                count += end[hour] - start[hour]
            }
            let newest = (0..<24).lazy.filter { end[$0] > start[$0] }.map { usage[$0][end[$0] - 1].time }.max()!
            if newest <= horizon {
                start = end
                continue
            }
            let (bytes, from) = days.bytes(day: day, edit: dayEdits[day]) {
                StateWriter.section(capacity: 64 + 24 * count) { w in
                    w.int(day)
                    var table = UsageSignatureTable(records: count)
                    for hour in 0..<24 {
                        usage[hour].withUnsafeBufferPointer { bucket in
                            for index in start[hour]..<end[hour] { table.note(bucket[index].signature) }
                        }
                    }
                    w.array(table.signatures) { $1.write(&$0) }
                    for hour in 0..<24 {
                        w.varint(UInt64(end[hour] - start[hour]))
                        var previous: (time: Int64, seq: UInt64) = (0, 0)
                        usage[hour].withUnsafeBufferPointer { bucket in
                            for index in start[hour]..<end[hour] {
                                UsageRecord.write(
                                    bucket.baseAddress! + index, &w, after: previous,
                                    signature: table.entry(of: bucket[index].signature))
                                previous = (bucket[index].time, bucket[index].seq)
                            }
                        }
                    }
                }
            }
            sections.append((day, bytes, from))
            start = end
        }
        w.varint(UInt64(sections.count))
        for section in sections {
            days.placed(day: section.day, at: w.section(section.bytes), from: section.from)
        }
        days.endState()
    }

    func write(_ w: inout StateWriter, usageHorizon: Int64) {
        var days = UsageDays()
        write(&w, reusing: &days, dayEdits: DayEdits(), usageHorizon: usageHorizon)
    }

    /// Writes the state; usage records of days wholly at or before `usageHorizon` are left
    /// out (`writeUsageByDay`).
    func write(_ w: inout StateWriter, reusing days: inout UsageDays, dayEdits: DayEdits, usageHorizon: Int64) {
        w.string(device)
        w.int(now)
        w.int(lastEventTime)
        w.uint(lastSeq)
        w.byte(dirty)
        w.optional(clock.zoneName) { $0.string($1) }
        w.int(Int64(clock.lastOffset))
        w.optional(platform) { $0.string($1) }
        w.optional(osVersion) { $0.string($1) }
        w.uint(deviceInfoSeq)
        w.bool(developerMode)
        w.uint(developerModeSeq)
        w.array(Array(stacks)) { $1.write(&$0) }
        timelines.write(&w)
        shortcutSets.write(&w) { w, s in
            w.uint(s.seq)
            w.int(s.time)
            w.array(s.shortcuts) { w, x in
                w.string(x.kind)
                w.string(x.role)
                w.optional(x.intent) { $0.string($1) }
                w.optional(x.parameters) { $0.map($1) { $0.string($1) } }
                w.array(x.providers) { $1.write(&$0) }
                w.array(x.providerTypes) { $0.string($1) }
            }
        }
        invalidations.write(&w) { w, v in
            w.uint(v.bySeq)
            w.int(v.time)
            w.uint(v.previousSeq)
        }
        intentSets.write(&w) { $1.write(&$0) }
        attributeSets.write(&w) { $1.write(&$0) }
        declarations.write(&w) { w, d in
            w.array(d.families) { $0.string($1) }
            w.string(d.configuration)
            w.optional(d.associatedKind) { $0.string($1) }
            w.uint(d.seq)
        }
        contexts.write(&w) { w, a in
            w.int(a.since)
            w.uint(a.seq)
        }
        permissions.write(&w) { w, a in
            w.bool(a.granted)
            w.uint(a.seq)
        }
        writeUsageByDay(&w, reusing: &days, dayEdits: dayEdits, horizon: usageHorizon)
        intentHomes.write(&w) { w, h in
            w.string(h.app)
            w.string(h.kind)
        }
        counters.write(&w)
        w.int(counterDay)
        w.times(wakeups.ascendingTimes, count: wakeups.count)
        w.varint(UInt64(wakeups.count))
        for bits in wakeups.ascendingWork { w.byte(bits) }
        w.uint(usageChanged ? 1 : 0)
        // Keyed `app/kind`, in that key's order.
        w.varint(UInt64(reloads.count))
        for (key, state) in reloads.map({ (DeviceModel.appKind($0.key.app, $0.key.kind), $0.value) }).sorted(by: {
            $0.0 < $1.0
        }) {
            w.string(key)
            state.write(&w)
        }
    }

    /// Appends a run of `hour`'s records (its count, then the records), whose signatures
    /// are entries of `table`. `daysLeft` days follow this one: when the hour's records
    /// outgrow their storage, it is grown for as many more runs of this size, rather than
    /// doubled run after run.
    mutating func readUsage(_ r: inout StateReader, hour: Int, table: [UsageSignature], daysLeft: Int) throws {
        let n = try r.length(atMost: r.bytes.count)
        guard n > 0 else { return }
        // Taken out of `usage`, so that appending checks no nested storage.
        var bucket = [UsageRecord]()
        swap(&bucket, &usage[hour])
        defer { swap(&bucket, &usage[hour]) }
        if bucket.capacity < bucket.count + n { bucket.reserveCapacity(bucket.count + n * (1 + daysLeft)) }
        var previous: (time: Int64, seq: UInt64) = (0, 0)
        for _ in 0..<n {
            previous = try UsageRecord.append(&r, hour: hour, after: previous, table: table, to: &bucket)
        }
    }

    init(_ r: inout StateReader) throws {
        self.init(device: try r.string())
        now = try r.int()
        lastEventTime = try r.int()
        lastSeq = try r.uint()
        dirty = try r.byte()
        clock.setZone(try r.optional { try $0.string() })
        clock.noteOffset(Int16(truncatingIfNeeded: try r.int()))
        platform = try r.optional { try $0.string() }
        osVersion = try r.optional { try $0.string() }
        deviceInfoSeq = try r.uint()
        developerMode = try r.bool()
        developerModeSeq = try r.uint()
        stacks = StackList(try r.array { try StackState(&$0) })
        timelines = try TimelineBook(&r)
        shortcutSets = try SortedTable(&r) { r in
            ShortcutSet(
                seq: try r.uint(), time: try r.int(),
                shortcuts: try r.array { r in
                    StoredShortcut(
                        kind: try r.string(), role: try r.string(), intent: try r.optional { try $0.string() },
                        parameters: try r.optional { try $0.map { try $0.string() } },
                        providers: try r.array { try Clue(&$0) }, providerTypes: try r.array { try $0.string() })
                })
        }
        invalidations = try SortedTable(&r) { r in
            Invalidation(bySeq: try r.uint(), time: try r.int(), previousSeq: try r.uint())
        }
        intentSets = try SortedTable(&r) { try ContextSet(&$0) }
        attributeSets = try SortedTable(&r) { try ContextSet(&$0) }
        declarations = try SortedTable(&r) { r in
            Declaration(
                families: try r.array { try $0.string() }, configuration: try r.string(),
                associatedKind: try r.optional { try $0.string() }, seq: try r.uint())
        }
        contexts = try SortedTable(&r) { r in ActiveState(since: try r.int(), seq: try r.uint()) }
        permissions = try SortedTable(&r) { r in PermissionState(granted: try r.bool(), seq: try r.uint()) }
        let days = try r.length(atMost: r.bytes.count)
        var signatures = UsageSignatures()
        for day in 0..<days {
            try r.section { r in
                _ = try r.int()
                let table = try r.array { try signatures.read(&$0) }
                for hour in 0..<24 { try readUsage(&r, hour: hour, table: table, daysLeft: days - 1 - day) }
            }
        }
        intentHomes = try SortedTable(&r) { r in IntentHome(app: try r.string(), kind: try r.string()) }
        counters = try DayCounters(&r)
        counterDay = try r.int()
        let wakeupTimes = try r.times()
        let wakeupWork = try r.array { try $0.byte() }
        guard wakeupTimes.count == wakeupWork.count, zip(wakeupTimes, wakeupTimes.dropFirst()).allSatisfy({ $0 < $1 })
        else {
            throw StateReader.Malformed(offset: r.offset)
        }
        wakeups = WakeupQueue(ascending: wakeupTimes, work: wakeupWork)
        usageChanged = try r.uint() != 0
        for (key, state) in try r.map({ try ReloadState(&$0) }) {
            // Split at the first `/` by its byte: `app/kind`.
            guard let slash = key.utf8.firstIndex(of: UInt8(ascii: "/")) else {
                throw StateReader.Malformed(offset: r.offset)
            }
            let app = String(Substring(key.utf8[..<slash]))
            let kind = String(Substring(key.utf8[key.utf8.index(after: slash)...]))
            reloads[TimelineBook.key(app: app, kind: kind)] = state
        }
        guard r.offset == r.bytes.count else { throw StateReader.Malformed(offset: r.offset) }
    }
}

extension ReloadState {
    func write(_ w: inout StateWriter) {
        w.uint(timelineSeq)
        w.int(timelineTime)
        w.optional(due) { $0.int($1) }
        w.uint(requestSeq)
        w.int(requestTime)
        // Each record after the first as its distance from the one before.
        var previous = (time: Int64(0), seq: UInt64(0))
        w.array(reloads) { w, x in
            w.int(x.time &- previous.time)
            w.int(Int64(bitPattern: x.seq &- previous.seq))
            w.optional(x.instance) { $0.string($1) }
            previous = (x.time, x.seq)
        }
        w.optional(budgetRemaining) { $0.double($1) }
        w.uint(budgetSeq)
    }
    init(_ r: inout StateReader) throws {
        self.init()
        timelineSeq = try r.uint()
        timelineTime = try r.int()
        due = try r.optional { try $0.int() }
        requestSeq = try r.uint()
        requestTime = try r.int()
        var previous = (time: Int64(0), seq: UInt64(0))
        reloads = try r.array { r in
            previous = (previous.time &+ (try r.int()), previous.seq &+ UInt64(bitPattern: try r.int()))
            return ReloadRecord(time: previous.time, seq: previous.seq, instance: try r.optional { try $0.string() })
        }
        budgetRemaining = try r.optional { try $0.double() }
        budgetSeq = try r.uint()
    }
}

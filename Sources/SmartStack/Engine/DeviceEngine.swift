import RecordFormat

/// The Smart Stack model of one device: a deterministic discrete-event simulation.
///
/// Feed it the device's events in (time, sequence number) order with `apply`, and move
/// its clock with `advance(to:)`; it runs the transitions the events schedule (an entry's
/// date, a window closing, a shortcut window opening) at their instants and reports every
/// decision. It holds no storage: the same events always give the same decisions.
///
/// ```swift
/// var engine = DeviceEngine(device: "default", policy: Policy())
/// for (seq, event) in events { engine.apply(event, seq: seq) }
/// engine.advance(to: t)
/// let state = engine.snapshot()
/// ```
public struct DeviceEngine: Sendable {
    /// The policy the engine follows.
    public let policy: Policy
    /// The policy's parameters, kept beside it: read in place, not copied at each use.
    let parameters: PolicyParameters
    /// The state; it is what a checkpoint stores.
    var state: DeviceModel
    /// Decisions made since the caller last took them.
    public internal(set) var decisions: [Decision] = []
    /// Everything the engine derives from `state` to answer fast; never checkpointed.
    var caches = DerivedCaches()

    /// A fresh engine for a device.
    public init(device: String, policy: Policy) {
        self.policy = policy
        self.parameters = policy.parameters
        self.state = DeviceModel(device: device)
    }

    /// The device's name.
    public var device: String { state.device }
    /// The engine's clock, microseconds since 1970.
    public var now: Int64 { state.now }
    /// How many events this engine has applied since it was created (not checkpointed).
    public private(set) var appliedEvents = 0
    /// How many times an evaluation looked at a stack since the engine was created (not
    /// checkpointed): the measure of the engine's work per stack.
    var stacksLookedAt = 0
    /// How many stacks' rows of cached member candidates were made or emptied since the
    /// engine was created (not checkpointed): the cache's upkeep per stack evaluated.
    var memberRowsPrepared: Int { caches.members.rowsPrepared }
    /// The (time, seq) of the last event applied.
    public var position: (time: Int64, seq: UInt64) { (state.lastEventTime, state.lastSeq) }

    /// The next instant at which a transition is scheduled (an entry's date, a window
    /// closing, an hour or day starting), if any.
    public var nextTransition: Int64? { state.wakeups.first }

    /// Hands over the decisions made so far.
    public mutating func takeDecisions() -> [Decision] {
        if decisions.isEmpty { return [] }
        let taken = decisions
        decisions = []
        return taken
    }

    /// The normalisation window (scores compare within it).
    var windowMicros: Int64 { Int64(parameters.normalizationWindowDays) * 86_400_000_000 }
    /// The usage pattern window (donations and app uses count within it).
    var patternWindowMicros: Int64 { Int64(parameters.usagePatternWindowDays) * 86_400_000_000 }

    /// Moves the clock to `time`: runs every transition scheduled up to it (each at its
    /// own instant) and settles the instant `time` itself.
    public mutating func advance(to time: Int64) {
        run(before: time)
        if time > state.now { state.now = time }
        settle()
    }

    /// Applies one event. Events at the same instant apply in sequence order, before the
    /// transitions they schedule at that instant. An event dated before the clock (only
    /// possible when a caller feeds events out of order) applies at the clock's instant.
    public mutating func apply(_ event: Event, seq: UInt64) {
        let t = event.envelope.time.microseconds
        if t > state.now {
            run(before: t)
            state.now = t
        }
        state.lastEventTime = max(state.lastEventTime, t)
        state.lastSeq = seq
        appliedEvents += 1
        state.clock.noteOffset(event.envelope.time.offsetMinutes)
        caches.placementKept = false
        let changed = stacksChanged(by: event.body)
        let work = handle(event, seq: seq)
        if !event.body.keepsPlacementInputs && !caches.placementKept { caches.placementEpoch &+= 1 }
        if !work.isEmpty && !event.body.changesOnlyCachedMembers {
            if let changed {
                for i in changed { caches.stableUntil.forget(i) }
            } else {
                caches.stableUntil.forgetAll()
            }
        }
        state.dirty |= work.rawValue
    }

    /// The stacks whose Smart Rotate inputs an event about to apply can change, when it can
    /// change no other stack's (nil when it may change any): the stack it makes, sets up or
    /// edits, and for an added widget the stacks it leaves. A stack it creates is new to
    /// every evaluation anyway.
    func stacksChanged(by body: EventBody) -> [Int]? {
        if let id = body.changesOneStackOnly { return state.stackIndex(id).map { [$0] } ?? [] }
        guard case .widgetAdded(let added) = body else { return nil }
        return state.stacks.holding(instance: added.widget.instance)
            + (state.stackIndex(added.stack).map { [$0] } ?? [])
    }

    /// Settles the current instant, then runs every transition scheduled before `time`.
    mutating func run(before time: Int64) {
        settle()
        while let next = state.wakeups.first, next < time {
            let work = state.wakeups.removeFirst().work
            state.now = next
            if work == Work.rotation.rawValue && rotationHolds() { continue }
            evaluate(Work(rawValue: work))
        }
    }

    /// Whether evaluating Smart Rotate alone now would do nothing: every stack holds until
    /// a later instant (`caches.stableUntil`) and the local day is still the counters' day. Most
    /// instants an entry or window schedules find it so (that of a later timeline's
    /// provider, or of a member whose rank did not change).
    mutating func rotationHolds() -> Bool {
        guard caches.stableUntil.allHold(at: state.now, stacks: state.stacks.count) else { return false }
        return state.clock.day(at: state.now) == state.counterDay
    }

    /// Evaluates the current instant if an event changed something or a transition is due.
    mutating func settle() {
        var due = state.dirty
        while let next = state.wakeups.first, next <= state.now {
            due |= state.wakeups.removeFirst().work
        }
        if due != 0 { evaluate(Work(rawValue: due)) }
    }

    /// Schedules an evaluation of `work` at each of `times`: a few are inserted one by
    /// one; more are sorted and merged into the wakeups in one pass.
    mutating func schedule(_ times: [Int64], _ work: Work = .all) {
        guard times.count > 2 else {
            for t in times { schedule(t, work) }
            return
        }
        var fresh = caches.freshWakeups
        caches.freshWakeups = []
        fresh.removeAll(keepingCapacity: true)
        defer { caches.freshWakeups = fresh }
        for t in times where t >= state.now && t != .max { fresh.append(t) }
        fresh.sort()
        var unique = 0
        for k in fresh.indices where unique == 0 || fresh[unique - 1] != fresh[k] {
            fresh[unique] = fresh[k]
            unique += 1
        }
        state.wakeups.merge(ascending: fresh[..<unique], work.rawValue)
    }

    /// Schedules an evaluation of `work` at `t`.
    mutating func schedule(_ t: Int64, _ work: Work = .all) {
        guard t >= state.now, t != .max else { return }
        state.wakeups.insert(t, work.rawValue)
    }
}

/// What an evaluation must look at.
struct Work: OptionSet, Hashable {
    let rawValue: UInt8
    /// Smart Rotate among members (a timeline's entry or window changed).
    static let rotation = Work(rawValue: 1)
    /// What the system places (suggestions, cards) and everything else.
    static let system = Work(rawValue: 2)
    static let all: Work = [.rotation, .system]
    static let none: Work = []
}

/// Everything the engine knows about one device at its clock's instant.
struct DeviceModel: Hashable {
    var device: String
    var now: Int64 = .min
    var lastEventTime: Int64 = .min
    var lastSeq: UInt64 = 0
    /// What events changed since the last evaluation (`Work` bits).
    var dirty: UInt8 = 0
    var clock = LocalClock()
    var platform: String?
    var osVersion: String?
    var deviceInfoSeq: UInt64 = 0
    var developerMode = false
    var developerModeSeq: UInt64 = 0
    var stacks = StackList()
    var timelines = TimelineBook()
    /// Keyed by app.
    var shortcutSets = SortedTable<ShortcutSet>()
    var invalidations = SortedTable<Invalidation>()
    /// Keyed by app.
    var intentSets = SortedTable<ContextSet>()
    /// Keyed by `app/kind`.
    var attributeSets = SortedTable<ContextSet>()
    var declarations = SortedTable<Declaration>()
    var contexts = SortedTable<ActiveState>()
    var permissions = SortedTable<PermissionState>()
    /// Donations and app uses by local hour of day, oldest first.
    var usage: [[UsageRecord]] = Array(repeating: [], count: 24)
    var intentHomes = SortedTable<IntentHome>()
    /// Rotations and suggestions counted per local day.
    var counters = DayCounters()
    var counterDay: Int64 = .min
    /// Instants with scheduled transitions and the `Work` bits of each.
    var wakeups = WakeupQueue()
    /// Whether `usage` ever changed (from then on, every hour's start is evaluated).
    var usageChanged = false
    /// Reload policies, requests and reloads, keyed by `app/kind` (T2, T3).
    var reloads: [ProviderKey: ReloadState] = [:]

    init(device: String) { self.device = device }

    func stackIndex(_ id: String) -> Int? { stacks.position(of: id) }

    static func appKind(_ app: String, _ kind: String) -> String { app + "/" + kind }
}

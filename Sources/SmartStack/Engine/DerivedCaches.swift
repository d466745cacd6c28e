/// What the engine derives from its state to answer fast: caches, their version counters
/// and reused buffers. None of it is checkpointed; an engine restored from a checkpoint
/// starts with it empty and gives the same answers. `DeviceEngine.invalidateCaches(for:app:)`
/// is the one place an event drops what it makes stale.
struct DerivedCaches {
    /// The usage model's answers for the current hour (derived; never checkpointed).
    var usage = UsageCache()
    /// Edits of each hour's usage records, and the caches put aside (derived).
    var usageEdits = UsageEdits()
    /// Each member's candidate and until when it holds (derived; never checkpointed).
    var members = MemberCache()
    /// Per stack, until when a rotation-only evaluation cannot change it: every member's
    /// candidate holds, no hold ends, no day rolls over (derived). An event clears it for
    /// every stack, unless all it can change for Smart Rotate is some members' candidates
    /// (then only their stacks' entries go, `DeviceEngine.dropCachedMembers`) or one stack.
    var stableUntil = StableStacks()
    /// Reused storage for rotation candidates: member positions and ranks.
    var rankScratch: [(member: Int, rank: Double)] = []
    /// Reused storage for the instants a timeline schedules, and for sorting instants
    /// to schedule.
    var timelineWakeups: [Int64] = []
    var freshWakeups: [Int64] = []
    /// Bumped by every event that can change what Widget Suggestions can place: the
    /// stacks, relevant shortcut sets, intents' homes, declarations (derived).
    var placementEpoch: UInt64 = 0
    /// Set by an event that, though of a kind that can, left those alone (a relevant
    /// shortcut set naming the same kinds in the same order as the one it replaces).
    var placementKept = false
    /// What Widget Suggestions can place, as of `placementEpoch` (derived).
    var suggestionPlan = SuggestionPlan()
    /// Bumped by every change of the person's context or permissions (derived).
    var contextVersion: UInt64 = 0
}

/// The instants until which each stack's Smart Rotate is known to hold (derived, never
/// checkpointed), kept so that an evaluation looks only at the stacks that may change: the
/// ones an event or a decision made it forget, the new ones, and all of them once the
/// clock reaches the earliest instant kept.
struct StableStacks {
    private var until: [Int64] = []
    /// No kept instant is earlier than this one (it may be earlier than all of them).
    private var floor: Int64 = .max
    /// Stacks forgotten since the last look (may repeat).
    private var forgotten: [Int] = []

    /// Whether stack `i` is known to hold at `now`.
    func holds(_ i: Int, at now: Int64) -> Bool { i < until.count && now < until[i] }

    /// Forgets every stack (after an event that may change any of them).
    mutating func forgetAll() {
        until.removeAll(keepingCapacity: true)
        forgotten.removeAll(keepingCapacity: true)
        floor = .max
    }

    /// Forgets stack `i`.
    mutating func forget(_ i: Int) {
        guard i < until.count else { return }
        until[i] = .min
        forgotten.append(i)
    }

    /// Keeps that stack `i` of `stacks` holds until `instant` (`.min`: it is not known to hold).
    mutating func keep(_ i: Int, until instant: Int64, stacks: Int) {
        while until.count < stacks {
            forgotten.append(until.count)
            until.append(.min)
        }
        if instant == .min {
            forget(i)
        } else {
            until[i] = instant
            floor = min(floor, instant)
        }
    }

    /// Whether all of `stacks` stacks are known to hold at `now`.
    func allHold(at now: Int64, stacks: Int) -> Bool {
        until.count >= stacks && forgotten.isEmpty && now < floor
    }

    /// The stacks to look at now, ascending, or nil when every stack must be looked at;
    /// either way the forgotten ones are taken.
    mutating func due(at now: Int64, stacks: Int) -> [Int]? {
        if now >= floor || (until.isEmpty && stacks > 0) {
            forgotten.removeAll(keepingCapacity: true)
            floor = .max
            for t in until where now < t { floor = min(floor, t) }
            return nil
        }
        var due = forgotten
        forgotten.removeAll(keepingCapacity: true)
        if until.count < stacks { due.append(contentsOf: until.count..<stacks) }
        return due
    }
}

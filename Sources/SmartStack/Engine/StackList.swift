/// A device's stacks in creation order, with each stack's position by id, the stacks that
/// hold each member instance, the stacks that show suggestions and how many take them kept
/// beside them (derived), so that finding the stack an event names, the stacks a moved
/// widget leaves, or the stacks the system may change, does not walk them all.
///
/// It is an array to its readers; its mutations keep the positions in step. Equality,
/// hashing and coding see the stacks alone.
struct StackList: RandomAccessCollection, MutableCollection, Hashable, Sendable {
    private var stacks: [StackState]
    private var positions: [String: Int] = [:]
    private var holders = Set<Int>()
    private var memberStacks: [String: Set<Int>] = [:]
    /// How many phone (iOS, iPadOS) and watch stacks take Widget Suggestions.
    private(set) var suggesting = (phone: 0, watch: 0)

    /// No stacks.
    init() { stacks = [] }

    /// The given stacks, in this order.
    init(_ stacks: [StackState]) {
        self.stacks = stacks
        reindex(from: 0)
    }

    /// The positions of the stacks that show a suggestion.
    var withSuggestions: [Int] { Array(holders) }

    /// The positions of the stacks that hold a member with this instance id, ascending.
    func holding(instance: String) -> [Int] { memberStacks[instance].map { $0.sorted() } ?? [] }

    var startIndex: Int { 0 }
    var endIndex: Int { stacks.count }

    subscript(position: Int) -> StackState {
        get { stacks[position] }
        set {
            let old = Facts(stacks[position])
            stacks[position] = newValue
            changed(from: old, at: position)
        }
        _modify {
            let old = Facts(stacks[position])
            yield &stacks[position]
            changed(from: old, at: position)
        }
    }

    /// The position of the stack with this id, if the device has it.
    func position(of id: String) -> Int? { positions[id] }

    /// Adds a stack after the others.
    mutating func append(_ stack: StackState) {
        positions[stack.id] = stacks.count
        stacks.append(stack)
        count(Facts(stack), at: stacks.count - 1, as: 1)
    }

    /// Removes the stack at `position`; the later ones move up one place.
    mutating func remove(at position: Int) {
        positions[stacks[position].id] = nil
        stacks.remove(at: position)
        reindex(from: 0)
    }

    /// Removes every stack that `shouldRemove` picks, keeping the others' order.
    mutating func removeAll(where shouldRemove: (StackState) throws -> Bool) rethrows {
        guard let first = try stacks.firstIndex(where: shouldRemove) else { return }
        for s in stacks[first...] where try shouldRemove(s) { positions[s.id] = nil }
        try stacks.removeAll(where: shouldRemove)
        reindex(from: 0)
    }

    /// What the kept facts are made of, for one stack.
    private struct Facts {
        var id: String
        var shows: Bool
        var takes: Bool
        var isWatch: Bool
        var members: [Member]
        init(_ s: StackState) {
            (id, shows, takes, isWatch, members) = (
                s.id, !s.suggestions.isEmpty, s.widgetSuggestions, s.isWatch, s.members
            )
        }
    }

    /// Keeps the facts in step after the stack at `position` changed.
    private mutating func changed(from old: Facts, at position: Int) {
        let new = Facts(stacks[position])
        if new.id != old.id {
            if positions[old.id] == position { positions[old.id] = nil }
            positions[new.id] = position
        }
        if new.shows != old.shows || new.takes != old.takes || new.isWatch != old.isWatch || new.members != old.members
        {
            count(old, at: position, as: -1)
            count(new, at: position, as: 1)
        }
    }

    private mutating func count(_ facts: Facts, at position: Int, as sign: Int) {
        if facts.shows {
            if sign > 0 { holders.insert(position) } else { holders.remove(position) }
        }
        if facts.takes {
            if facts.isWatch { suggesting.watch += sign } else { suggesting.phone += sign }
        }
        for member in facts.members {
            if sign > 0 {
                memberStacks[member.widget.instance, default: []].insert(position)
            } else if memberStacks[member.widget.instance]?.remove(position) != nil,
                memberStacks[member.widget.instance]!.isEmpty
            {
                memberStacks[member.widget.instance] = nil
            }
        }
    }

    /// Finds every kept fact again from the stacks, positions from `start` on.
    private mutating func reindex(from start: Int) {
        if start == 0 {
            (holders, suggesting, memberStacks) = ([], (0, 0), [:])
            for i in stacks.indices { count(Facts(stacks[i]), at: i, as: 1) }
        }
        for i in start..<stacks.count { positions[stacks[i].id] = i }
    }

    static func == (a: StackList, b: StackList) -> Bool { a.stacks == b.stacks }
    func hash(into hasher: inout Hasher) { hasher.combine(stacks) }
}

import Testing

@testable import SmartStack

/// The engine's work grows with its stacks, not with their square: an event that makes,
/// edits or fills one stack looks at that stack (and, for a widget that moves, the stack
/// it leaves), and what the stacks kept beside them (positions, members, suggestions)
/// stays in step through every edit.
@Suite("Work per stack")
struct StackWorkTests {
    static func engine(_ lines: [String]) throws -> DeviceEngine {
        var decoder = EventDecoder()
        var engine = DeviceEngine(device: "default", policy: Policy())
        for (k, line) in lines.enumerated() { engine.apply(try decoder.decode(line), seq: UInt64(k + 1)) }
        engine.advance(to: try SmartStackTime.micros("2026-03-03T00:00:00Z"))
        return engine
    }

    /// `count` stacks, each made and given a widget a second apart.
    static func stacks(_ count: Int) -> [String] {
        (0..<count).flatMap { i in
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let at = "2026-03-02T06:\(two(i / 60 % 60)):\(two(i % 60))Z"
            return [
                Line.stack("s\(i)", at: at),
                Line.add("w\(i)", app: "a\(i % 7)", kind: "K", stack: "s\(i)", at: at),
            ]
        }
    }

    @Test("1,500 and 3,000 stacks made one by one: each evaluation looks at a few stacks, not all of them")
    func linearInStacks() throws {
        let small = try Self.engine(Self.stacks(1_500))
        let large = try Self.engine(Self.stacks(3_000))
        #expect(small.state.stacks.count == 1_500 && large.state.stacks.count == 3_000)
        // One look per event and a few full looks (the hour passing), not one per stack per event.
        #expect(small.stacksLookedAt < 12 * 1_500, "\(small.stacksLookedAt)")
        #expect(large.stacksLookedAt < 12 * 3_000, "\(large.stacksLookedAt)")
        #expect(Double(large.stacksLookedAt) / Double(small.stacksLookedAt) < 2.5)
        // The member cache readies a stack's row when that stack is evaluated: emptying
        // it for a new widget does not make the rows of every stack before it again.
        #expect(large.memberRowsPrepared < 4 * 3_000, "\(large.memberRowsPrepared)")
        #expect(Double(large.memberRowsPrepared) / Double(max(1, small.memberRowsPrepared)) < 2.5)
    }

    @Test("a widget added to another stack leaves the first; a removed stack's id is free again")
    func movesAndRemovals() throws {
        let e = try Self.engine([
            Line.stack("s1"), Line.stack("s2", at: "06:00"), Line.stack("s3", at: "06:00"),
            Line.add("w1", app: "a", kind: "K", stack: "s1"),
            Line.add("w1", app: "a", kind: "K", stack: "s3", at: "06:02"),
            Line.event("stack.removed", at: "06:03", #""stack":"s1""#),
            Line.add("w2", app: "a", kind: "K", stack: "s1", at: "06:04"),
        ])
        #expect(e.state.stacks.map(\.id) == ["s2", "s3", "s1"])
        #expect(e.state.stackIndex("s3") == 1 && e.state.stackIndex("s1") == 2 && e.state.stackIndex("s9") == nil)
        #expect(e.state.stacks[1].members.map(\.widget.instance) == ["w1"])
        #expect(e.state.stacks[2].members.map(\.widget.instance) == ["w2"])
        #expect(e.state.stacks.holding(instance: "w1") == [1] && e.state.stacks.holding(instance: "w2") == [2])
    }
}

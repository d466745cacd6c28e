import Testing

@testable import SmartStack

@Suite("Usage parts")
struct UsagePartTests {
    func candidate(_ source: String) -> Candidate {
        Candidate(
            widget: WidgetIdentity(instance: "w-1", kind: "K", app: "com.example.a"), rank: 0.5,
            signal: .pattern(intent: "I", evidence: [1, 2, 3], suggestion: false), source: source)
    }

    @Test("a part is a value: changing a copy's candidates leaves the original's as they were")
    func copiesAreIndependent() {
        var original = UsagePart()
        original.patternUntil = 10
        #expect(original.candidate == nil && original.shortcut == nil)
        original.candidate = candidate("pattern")
        var copy = original
        copy.candidate = candidate("other")
        copy.shortcut = candidate("shortcut")
        #expect(original.candidate?.source == "pattern" && original.shortcut == nil)
        #expect(copy.candidate?.source == "other" && copy.shortcut?.source == "shortcut")
    }

    @Test("a member's donation pattern and the rest of its usage part go stale apart")
    func partsGoStaleApart() {
        var cache = MemberCache()
        #expect(cache.staleUsage(stack: 0, member: 0, now: 0, context: 1) == .both)
        var part = UsagePart()
        part.rank = 0.7
        part.patternUntil = 100
        part.shortcutRank = 0.6
        part.otherUntil = 200
        part.contextVersion = 1
        cache.setRelevance(rank: nil, until: 300, stack: 0, member: 0)
        cache.setUsage(part, .both, watch: false, stack: 0, member: 0)
        #expect(cache.staleUsage(stack: 0, member: 0, now: 50, context: 1).isEmpty)
        #expect(cache.slot(stack: 0, member: 0, now: 50, context: 1)?.chosen == .usage)
        #expect(cache.slot(stack: 0, member: 0, now: 50, context: 1)?.validUntil == 100)
        // The hour ends: the pattern alone is stale; a context change makes the rest stale too.
        #expect(cache.staleUsage(stack: 0, member: 0, now: 150, context: 1) == .pattern)
        #expect(cache.staleUsage(stack: 0, member: 0, now: 150, context: 2) == .both)
        #expect(cache.slot(stack: 0, member: 0, now: 150, context: 1) == nil)
        // The pattern worked out again without one: the shortcut is the candidate.
        var pattern = UsagePart()
        pattern.patternUntil = 250
        cache.setUsage(pattern, .pattern, watch: false, stack: 0, member: 0)
        #expect(cache.slot(stack: 0, member: 0, now: 150, context: 1)?.chosen == .shortcut)
        #expect(cache.slot(stack: 0, member: 0, now: 150, context: 1)?.validUntil == 200)
        #expect(cache.staleUsage(stack: 0, member: 0, now: 220, context: 1) == .other)
        // On watchOS the rest carries the context's rank, which a pattern never has.
        var context = UsagePart()
        context.rank = 0.8
        context.contextVersion = 1
        cache.setUsage(context, .both, watch: true, stack: 1, member: 0)
        cache.setRelevance(rank: 0.9, until: .max, stack: 1, member: 0)
        #expect(cache.slot(stack: 1, member: 0, now: 0, context: 1)?.chosen == .relevance)
        cache.setRelevance(rank: 0.5, until: .max, stack: 1, member: 0)
        #expect(cache.slot(stack: 1, member: 0, now: 0, context: 1)?.chosen == .usage)
        cache.drop(stack: 1, member: 0, relevance: false, usage: true)
        #expect(cache.staleUsage(stack: 1, member: 0, now: 0, context: 1) == .both)
    }
}

import Testing
@testable import SmartStack

@Suite("Usage parts")
struct UsagePartTests {
    func candidate(_ source: String) -> Candidate {
        Candidate(widget: WidgetIdentity(instance: "w-1", kind: "K", app: "com.example.a"), rank: 0.5,
                  signal: .pattern(intent: "I", evidence: [1, 2, 3], suggestion: false), source: source)
    }

    @Test("a part is a value: changing a copy's candidates leaves the original's as they were")
    func copiesAreIndependent() {
        var original = UsagePart(until: 10)
        #expect(original.candidate == nil && original.shortcut == nil)
        original.candidate = candidate("pattern")
        var copy = original
        copy.candidate = candidate("other")
        copy.shortcut = candidate("shortcut")
        #expect(original.candidate?.source == "pattern" && original.shortcut == nil)
        #expect(copy.candidate?.source == "other" && copy.shortcut?.source == "shortcut")
    }
}

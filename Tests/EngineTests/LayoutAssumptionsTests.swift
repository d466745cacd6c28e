import SmartStack
import Testing

@testable import Forensics

/// The assumptions the page's overview marks on each observed layout: those an answer
/// resting on it can list (docs/queries.md, "Assumptions").
@Suite("Layout assumptions on the overview")
struct LayoutAssumptionsTests {
    static func layout(at time: String, method: String = "recorded", uncertain: Bool = false, _ stacks: String)
        throws -> Event
    {
        let extra = uncertain ? #","timeUncertain":true"# : ""
        var decoder = EventDecoder()
        return try decoder.decode(
            Line.event(
                "stack.layoutObserved", at: time,
                #""layout":"sha256:t","stacks":[\#(stacks)],"method":"\#(method)","complete":false\#(extra)"#))
    }

    static func stack(_ id: String, switches: Bool = true, selected: String? = nil) -> String {
        let s = switches ? #","smartRotate":false,"widgetSuggestions":true"# : ""
        let pick = selected.map { #","selected":"\#($0)""# } ?? ""
        return
            #"{"stack":"\#(id)","platform":"iOS","family":"systemSmall","members":[{"instance":"w-\#(id)","app":"a","kind":"K","family":"systemSmall","configuration":null}]\#(s)\#(pick)}"#
    }

    @Test(
        "a stack no event defined before is assumed before the layout; missing switches, inference and file times after"
    )
    func codes() throws {
        var layouts = LayoutAssumptions()
        layouts.created("s1", at: (try SmartStackTime.micros("2026-03-02T09:00:00Z"), 1))
        layouts.created("s3", at: (try SmartStackTime.micros("2026-03-02T12:00:00Z"), 9))
        let first = try Self.layout(
            at: "10:00", "\(Self.stack("s1")),\(Self.stack("s2", switches: false, selected: "w-s2"))")
        #expect(
            layouts.codes(of: try #require(first.layoutBody), event: first, seq: 2) == [
                "LAYOUT_ASSUMED", "SETTINGS_ASSUMED", "TOP_ASSUMED",
            ])
        // s1 was created before; s2 was listed by the first layout: nothing is assumed before
        // this one, but it is inferred and its time is a file's.
        let second = try Self.layout(
            at: "11:00", method: "inferred", uncertain: true, "\(Self.stack("s1")),\(Self.stack("s2"))")
        #expect(
            layouts.codes(of: try #require(second.layoutBody), event: second, seq: 3) == [
                "LAYOUT_INFERRED", "LAYOUT_TIME_UNCERTAIN",
            ])
        // s3 is created only after this layout: the layout alone defines it before its time.
        let third = try Self.layout(at: "11:30", Self.stack("s3"))
        #expect(layouts.codes(of: try #require(third.layoutBody), event: third, seq: 4) == ["LAYOUT_ASSUMED"])
        let fourth = try Self.layout(at: "13:00", Self.stack("s1"))
        #expect(layouts.codes(of: try #require(fourth.layoutBody), event: fourth, seq: 10).isEmpty)
    }
}

extension Event {
    fileprivate var layoutBody: LayoutObserved? {
        if case .layoutObserved(let layout) = body { return layout }
        return nil
    }
}

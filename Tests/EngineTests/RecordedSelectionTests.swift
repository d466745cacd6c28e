import SmartStack
import StackLedgerTesting
import Testing

/// `docs/events.md`, "Observed layouts": the member a recorded layout names as the person's
/// selection (IconState's `userSelectedElementIdentifier`).
@Suite("Recorded selections")
struct RecordedSelectionTests {
    static let three: [(String, String, String, String?)] = [
        ("a", "com.a", "A", nil), ("b", "com.b", "B", nil), ("c", "com.c", "C", nil),
    ]

    func codes(_ s: StackSnapshot?) -> [String] { s?.assumptions.map(\.code) ?? [] }

    @Test("Smart Rotate recorded off: the selected member is on top from the layout's time, USER_SELECTED citing it")
    func smartRotateOff() throws {
        let h = try EngineHarness([
            Line.stack(smartRotate: true, at: "06:00"),
            Line.add("a", app: "com.a", kind: "A"), Line.add("b", app: "com.b", kind: "B"),
            Line.add("c", app: "com.c", kind: "C"),
            Line.layout(at: "12:00", members: Self.three, smartRotate: false, suggestions: false, selected: "b"),
        ])
        #expect(try h.stack("home", at: Line.t("11:59"))?.top?.widget.instance == "a")
        let after = try #require(try h.stack("home", at: Line.t("12:30")))
        #expect(after.top?.widget.instance == "b")
        #expect(!codes(after).contains("TOP_ASSUMED"))
        let placed = try #require(try h.decisions(through: Line.t("12:30")).last)
        #expect(placed.widget.instance == "b" && placed.from?.instance == "a")
        let reason = try #require(placed.reasons.first)
        #expect(reason.code == "USER_SELECTED" && reason.basis == .documented && reason.rule == "G1")
        #expect(reason.events == [5])
    }

    @Test("before the layout's time an assumed stack has the selected member on top, and says TOP_ASSUMED")
    func assumedTop() throws {
        let h = try EngineHarness([
            Line.layout(at: "12:00", members: Self.three, smartRotate: false, suggestions: false, selected: "c")
        ])
        let before = try #require(try h.stack("home", at: Line.t("09:00")))
        #expect(before.top?.widget.instance == "c")
        #expect(codes(before).contains("TOP_ASSUMED") && codes(before).contains("LAYOUT_ASSUMED"))
        let assumption = try #require(before.assumptions.first { $0.code == "TOP_ASSUMED" })
        #expect(assumption.instance == "c" && assumption.events == [1])
        let after = try #require(try h.stack("home", at: Line.t("12:30")))
        #expect(after.top?.widget.instance == "c" && !codes(after).contains("TOP_ASSUMED"))
    }

    @Test("Smart Rotate on: the selection is the assumed top before the layout, and moves nothing at its time")
    func smartRotateOn() throws {
        let h = try EngineHarness([
            Line.stack(smartRotate: true, at: "06:00"),
            Line.add("a", app: "com.a", kind: "A"), Line.add("b", app: "com.b", kind: "B"),
            Line.add("c", app: "com.c", kind: "C"),
            Line.layout(at: "12:00", members: Self.three, smartRotate: true, suggestions: true, selected: "c"),
        ])
        #expect(try h.stack("home", at: Line.t("12:30"))?.top?.widget.instance == "a")
        #expect(
            !(try h.decisions(through: Line.t("12:30"))).contains { $0.reasons.contains { $0.code == "USER_SELECTED" } }
        )
        let assumed = try EngineHarness([
            Line.layout(at: "12:00", members: Self.three, smartRotate: true, suggestions: true, selected: "b")
        ])
        let before = try #require(try assumed.stack("home", at: Line.t("09:00")))
        #expect(before.top?.widget.instance == "b" && codes(before).contains("TOP_ASSUMED"))
    }
}

import Projections
import SmartStack
import Testing

/// The one rule by which the CLI and `serve` choose the devices a question covers.
@Suite("Choosing the device")
struct DeviceChoiceTests {
    @Test("the device asked for, if the store holds it; else the problem names what it holds")
    func asked() {
        #expect(DeviceChoice.of("b", among: ["a", "b"]) == .chosen(["b"]))
        #expect(DeviceChoice.of("b", among: ["a", "b"], allDevices: true) == .chosen(["b"]))
        #expect(DeviceChoice.of("c", among: ["a", "b"]) == .unknown("c", holds: ["a", "b"]))
        #expect(DeviceChoice.of("c", among: []) == .unknown("c", holds: []))
    }

    @Test("none asked for: the only device, every device for a question over all, else several")
    func notAsked() {
        #expect(DeviceChoice.of(nil, among: ["a"]) == .chosen(["a"]))
        #expect(DeviceChoice.of(nil, among: ["a", "b"]) == .several(["a", "b"]))
        #expect(DeviceChoice.of(nil, among: ["a", "b"], allDevices: true) == .chosen(["a", "b"]))
        #expect(DeviceChoice.of(nil, among: []) == .empty)
        #expect(DeviceChoice.of(nil, among: [], allDevices: true) == .empty)
    }

    @Test("a what-if may leave out only stored events: the largest sequence number past the last is named")
    func withoutPast() {
        #expect(ProjectionQuery(without: [3, 9, 12]).withoutPast(lastSeq: 10) == 12)
        #expect(ProjectionQuery(without: [3, 9, 10]).withoutPast(lastSeq: 10) == nil)
        #expect(ProjectionQuery().withoutPast(lastSeq: 0) == nil)
    }
}

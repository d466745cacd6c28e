import RecordFormat
import SmartStack
import StackLedgerTesting
import Testing

/// The benchmark's shapes of device are what docs/performance.md says they are: every line
/// valid, the same log for the same seed, and each shape's mix of events.
@Suite("Shapes of device")
struct ShapeGeneratorTests {
    struct Log {
        var lines: [String]
        var types: [String: Int] = [:]
        var devices: Set<String> = []
        var stacksPerDevice: [String: Set<String>] = [:]

        init(_ shape: ShapeGenerator.Shape, events: Int, seed: UInt64 = 1) throws {
            var generator = ShapeGenerator(shape: shape, events: events, seed: seed)
            var bytes = [UInt8]()
            try generator.writeNDJSON { bytes.append(contentsOf: $0) }
            lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            var decoder = EventDecoder()
            for line in lines {
                let event = try decoder.decode(line)
                types[event.type.rawValue, default: 0] += 1
                devices.insert(event.envelope.device)
                if case .stackCreated(let created) = event.body {
                    stacksPerDevice[event.envelope.device, default: []].insert(created.stack)
                }
            }
        }

        func share(_ names: String...) -> Double {
            Double(names.map { types[$0] ?? 0 }.reduce(0, +)) / Double(lines.count)
        }
    }

    @Test("every shape writes exactly the events asked for, each line one the contract accepts, over its devices")
    func everyShapeIsValid() throws {
        for shape in ShapeGenerator.Shape.allCases {
            let log = try Log(shape, events: 12_000)
            #expect(log.lines.count == 12_000, "\(shape)")
            #expect(log.devices.count == shape.devices, "\(shape)")
        }
    }

    @Test("the same seed gives the same log byte for byte; another seed another")
    func deterministic() throws {
        let a = try Log(.watch, events: 3_000, seed: 7)
        let b = try Log(.watch, events: 3_000, seed: 7)
        let c = try Log(.watch, events: 3_000, seed: 8)
        #expect(a.lines == b.lines)
        #expect(a.lines != c.lines)
    }

    @Test(
        "each shape's mix: a phone's donations and launches, a watch's relevant intents, many stacks and their layouts")
    func mixes() throws {
        let phone = try Log(.phoneApps, events: 20_000)
        #expect(phone.share("intent.donated", "app.foreground") >= 0.45)
        #expect(phone.share("widget.timeline") >= 0.30)
        #expect(phone.share("shortcuts.relevantSet") >= 0.08)
        let timelines = try Log(.phoneTimelines, events: 20_000)
        #expect(timelines.share("widget.timeline") >= 0.55)
        let watch = try Log(.watch, events: 20_000)
        #expect(watch.share("intents.relevantSet") >= 0.30)
        #expect(watch.share("widget.relevance") >= 0.15)
        let stacks = try Log(.manyStacks, events: 50_000)
        #expect(stacks.stacksPerDevice.values.allSatisfy { (40...200).contains($0.count) })
        #expect((stacks.types["stack.layoutObserved"] ?? 0) >= 5)
        #expect(stacks.share("stack.observed", "stack.rotated") >= 0.1)
        let mixed = try Log(.mixed, events: 30_000)
        #expect(
            Set(mixed.devices.map { $0.split(separator: "-").dropLast().joined(separator: "-") }) == [
                "phone-apps", "watch", "many-stacks",
            ])
    }
}

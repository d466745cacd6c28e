import Importers
import RecordFormat
import SmartStack
import Testing

/// `EventLines`: an importer's events kept as lines, spilled past 8 MiB to a temporary file,
/// and decoded again in order when stored.
@Suite("Event lines")
struct EventLinesTests {
    /// `n` events whose lines are about 400 bytes each, numbered by their duration.
    func events(_ n: Int, app: String = "com.example.app") -> [Event] {
        let padding = String(repeating: "x", count: 300)
        return (0..<n).map { i in
            var decoder = EventDecoder()
            return try! decoder.decode(
                #"{"type":"app.foreground","time":"2026-03-02T09:00:00Z","app":"\#(app)","id":"\#(padding)-\#(i)","duration":\#(i)}"#
            )
        }
    }

    @Test("past the memory limit the lines spill to a file and come back whole, in order, in chunks")
    func spillsAndReadsBack() throws {
        let input = events(30_000)
        let lines = EventLines(input)
        #expect(lines.count == 30_000 && lines.failure == nil)
        var chunks = [Int]()
        var back = [Event]()
        try lines.forEachChunk(4096) { chunk in
            chunks.append(chunk.count)
            back += chunk
        }
        #expect(back == input)
        #expect(chunks.count == 8 && chunks.dropLast().allSatisfy { $0 == 4096 } && chunks.last == 30_000 - 7 * 4096)
    }

    @Test("appending a sink's lines after another's keeps both in order, with the earliest and latest times")
    func appendsInOrder() throws {
        let first = events(20_000, app: "com.first")
        let second = events(20_000, app: "com.second")
        var lines = EventLines(first)
        lines.append(contentsOf: EventLines(second))
        #expect(lines.count == 40_000)
        #expect(lines.events == first + second)
        #expect(lines.firstTime == first[0].envelope.time && lines.lastTime == first[0].envelope.time)
    }
}

import Foundation
package import Ledger
import Projections
package import SmartStack

/// `export projection`'s lines: state samples and decisions as NDJSON, or one CSV row per
/// (sample, stack, widget).
package enum ProjectionExport {
    /// The CSV header row.
    package static let csvHeader = "time,device,stack,instance,app,kind,position,onTop,suggested,score,normalized\n"

    /// The CSV rows of one sample: one per widget of every stack.
    package static func csvRows(at: Timestamp, device: String, snapshot: DeviceSnapshot) -> String {
        var out = ""
        for s in snapshot.stacks {
            for g in s.widgets {
                let fields = [
                    at.rfc3339, device, s.stack, g.widget.instance, g.widget.app, g.widget.kind,
                    String(g.position),
                    String(s.top?.widget.instance == g.widget.instance), String(g.suggested),
                    g.relevance.map { StateText.number($0.score) } ?? "",
                    g.relevance.map { StateText.number($0.normalized.roundedForDisplay) } ?? "",
                ]
                out += fields.map(csvField).joined(separator: ",") + "\n"
            }
        }
        return out
    }

    /// One sample as an NDJSON line: `{"kind":"state","time":...,"device":...,"stacks":[...]}`.
    package static func stateLine(at: Timestamp, device: String, snapshot: DeviceSnapshot) -> [UInt8] {
        var w = CanonicalWriter()
        w.beginObject()
        w.key("kind")
        w.string("state")
        w.key("time")
        w.time(at)
        w.key("device")
        w.string(device)
        w.key("stacks")
        ProjectionJSON.writeStacks(&w, snapshot.stacks)
        w.endObject()
        w.bytes.append(0x0A)
        return w.bytes
    }

    /// One decision as an NDJSON line: `{"kind":"decision",` then the decision's own members.
    package static func decisionLine(_ d: Decision) -> String {
        var w = CanonicalWriter()
        ProjectionJSON.write(&w, d)
        return #"{"kind":"decision","# + String(decoding: w.bytes.dropFirst(), as: UTF8.self) + "\n"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    package static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

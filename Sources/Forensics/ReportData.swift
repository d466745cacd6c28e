import Foundation
package import Ledger
package import Projections
package import SmartStack

/// The report's data, as one JSON document safe to embed in a `<script>` element.
package enum ReportData {
    package static func collect(
        projector: Projector, device: String, from: Timestamp, to: Timestamp, query: ProjectionQuery, verified: Bool,
        tool: String
    ) throws -> String {
        struct OnTop: Equatable {
            var widget: WidgetIdentity
            var suggested: Bool
        }
        struct Relevance: Equatable {
            var widget: WidgetIdentity
            var score: Double
            var normalized: Double
        }
        var lanes = SpanRecorder<String, OnTop>()
        var shown = SpanRecorder<String, WidgetIdentity>()
        var relevance = SpanRecorder<String, Relevance>()
        var platforms = [String: String]()
        var order = [String]()
        var decisions = [Decision]()
        // Every assumption an answer in the interval rests on, once, in the order met.
        var assumed = [Assumption]()
        try projector.walkChanges(
            device: device, from: from.microseconds, to: to.microseconds, query: query,
            visit: { t, engine in
                var top = [String: OnTop]()
                var suggested = [String: WidgetIdentity]()
                var scores = [String: Relevance]()
                for stack in engine.snapshot(at: Timestamp(microseconds: t)).stacks {
                    for assumption in stack.assumptions where !assumed.contains(assumption) {
                        assumed.append(assumption)
                    }
                    if platforms[stack.stack] == nil {
                        platforms[stack.stack] = stack.platform
                        order.append(stack.stack)
                    }
                    if let shownTop = stack.top {
                        top[stack.stack] = OnTop(widget: shownTop.widget, suggested: shownTop.suggested)
                    }
                    for shown in stack.widgets {
                        if shown.suggested { suggested[stack.stack + "\u{1F}" + shown.widget.instance] = shown.widget }
                        if let relevance = shown.relevance {
                            scores[shown.widget.instance] = Relevance(
                                widget: shown.widget, score: relevance.score,
                                normalized: relevance.normalized.roundedForDisplay)
                        }
                    }
                }
                lanes.visit(t, top)
                shown.visit(t, suggested)
                relevance.visit(t, scores)
            }, decision: { decisions.append($0) })
        let topSpans = lanes.finish(at: to.microseconds)
        let suggestionSpans = shown.finish(at: to.microseconds)
        let relevanceSpans = relevance.finish(at: to.microseconds)

        var w = CanonicalWriter(capacity: 1 << 16)
        func ms(_ micros: Int64) { w.number(Double(micros / 1000)) }
        w.beginObject()
        w.key("device")
        w.string(device)
        w.key("from")
        ms(from.microseconds)
        w.key("to")
        ms(to.microseconds)
        w.key("fromText")
        w.string(from.rfc3339)
        w.key("toText")
        w.string(to.rfc3339)
        w.key("verified")
        w.bool(verified)
        ProjectionJSON.writeHeader(&w, policy: projector.policy, tool: tool)
        w.key("assumptions")
        ProjectionJSON.write(&w, assumed)
        w.key("stacks")
        w.beginArray()
        for id in order {
            w.beginObject()
            w.key("stack")
            w.string(id)
            w.key("platform")
            w.string(platforms[id] ?? "")
            w.key("lanes")
            w.beginArray()
            for span in topSpans where span.key == id {
                w.beginObject()
                w.key("start")
                ms(span.start)
                w.key("end")
                ms(span.end)
                w.key("instance")
                w.string(span.value.widget.instance)
                w.key("kind")
                w.string(span.value.widget.kind)
                w.key("app")
                w.string(span.value.widget.app)
                w.key("suggested")
                w.bool(span.value.suggested)
                w.endObject()
            }
            w.endArray()
            w.key("suggestions")
            w.beginArray()
            for span in suggestionSpans where span.key.hasPrefix(id + "\u{1F}") {
                w.beginObject()
                w.key("start")
                ms(span.start)
                w.key("end")
                ms(span.end)
                w.key("instance")
                w.string(span.value.instance)
                w.key("kind")
                w.string(span.value.kind)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        // Each widget's relevance as spans of constant score: [start, end, score, normalised].
        w.key("relevance")
        w.beginArray()
        var index = 0
        while index < relevanceSpans.count {
            let key = relevanceSpans[index].key
            let widget = relevanceSpans[index].value.widget
            w.beginObject()
            w.key("instance")
            w.string(widget.instance)
            w.key("kind")
            w.string(widget.kind)
            w.key("spans")
            w.beginArray()
            while index < relevanceSpans.count && relevanceSpans[index].key == key {
                let relevance = relevanceSpans[index]
                w.beginArray()
                ms(relevance.start)
                ms(relevance.end)
                w.number(relevance.value.score)
                w.number(relevance.value.normalized)
                w.endArray()
                index += 1
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        try writeEvents(&w, projector: projector, device: device, from: from, to: to)
        w.key("decisions")
        w.beginArray()
        for decision in decisions { ProjectionJSON.write(&w, decision) }
        w.endArray()
        w.endObject()
        return scriptSafe(w.text)
    }

    /// Event markers and context bands from the stored events of the interval (at most
    /// 20,000 markers).
    package static func writeEvents(
        _ w: inout CanonicalWriter, projector: Projector, device: String, from: Timestamp, to: Timestamp
    ) throws {
        var events = [(UInt64, Event)]()
        try projector.ledger.read { reader in
            for seq in try reader.seqs(device: device, fromMicros: from.microseconds, toMicros: to.microseconds + 1)
                .prefix(
                    20_000)
            {
                try reader.withRecord(seq) { events.append((seq, try Event(record: $0))) }
            }
        }
        w.key("events")
        w.beginArray()
        for (seq, e) in events {
            var summary = CanonicalWriter()
            e.body.writeFieldsForDisplay(&summary)
            w.beginObject()
            w.key("seq")
            w.integer(Int(seq))
            w.key("time")
            w.number(Double(e.envelope.time.microseconds / 1000))
            w.key("type")
            w.string(e.envelope.type)
            w.key("app")
            if let app = e.envelope.app { w.string(app) } else { w.null() }
            w.key("summary")
            w.string(String(summary.text.prefix(400)))
            w.key("stack")
            if let stack = Self.recordStack(e) { w.string(stack) } else { w.null() }
            if case .stackObserved(let o) = e.body {
                // What the record can tell: which widget was shown, or only that its stack was.
                w.key("scope")
                w.string(Explainer.ShownRecord.scope(of: o, e).rawValue)
                if let instance = o.instance ?? Explainer.extra("widgetIdentifier", of: e) {
                    w.key("instance")
                    w.string(instance)
                }
            }
            if case .widgetTapped = e.body, e.envelope.source != nil {
                w.key("recorded")
                w.bool(true)
            }
            if let source = e.envelope.source {
                // Where the device kept it: the artifact's path, stream or table, and SHA-256.
                w.key("source")
                w.beginObject()
                for (key, value) in [("path", source.path), ("stream", source.stream), ("artifact", source.artifact)] {
                    guard let value else { continue }
                    w.key(key)
                    w.string(value)
                }
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        w.key("contexts")
        w.beginArray()
        var open = [String: (Int64, UInt64)]()
        func band(_ key: String, _ start: Int64, _ end: Int64, _ seq: UInt64) {
            w.beginObject()
            w.key("context")
            w.string(key)
            w.key("start")
            w.number(Double(start / 1000))
            w.key("end")
            w.number(Double(end / 1000))
            w.key("seq")
            w.integer(Int(seq))
            w.endObject()
        }
        for (seq, e) in events {
            guard case .contextChanged(let change) = e.body else { continue }
            let key = change.context.canonicalText
            if change.active {
                if open[key] == nil { open[key] = (e.envelope.time.microseconds, seq) }
            } else if let (start, s) = open.removeValue(forKey: key) {
                band(key, start, e.envelope.time.microseconds, s)
            }
        }
        for key in open.keys.sorted() { band(key, open[key]!.0, to.microseconds, open[key]!.1) }
        w.endArray()
    }

    /// The stack a device record (`stack.observed`, `stack.rotated`) names, drawn in that
    /// stack's lane; nil for other events and for records that name none.
    static func recordStack(_ event: Event) -> String? {
        switch event.body {
        case .stackObserved(let o): o.stack
        case .stackRotated(let r): r.stack
        default: nil
        }
    }

    /// JSON that cannot end or open a tag inside `<script>`: `<`, `>`, `&` and the line
    /// separators are written as `\\u` escapes (they only occur inside JSON strings).
    package static func scriptSafe(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for ch in json.unicodeScalars {
            switch ch {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

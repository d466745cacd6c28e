package import Ledger
package import SmartStack

/// How a stored event reads in `log`'s text and in the events an answer cites.
package enum LogText {
    /// One stored event as `log` prints it: sequence number, local time, device, type, app,
    /// fields, id and provenance, every stored string escaped.
    package static func line(view: RecordView, event: Event, local: LocalTime) -> String {
        let env = view.envelope
        var body = event
        body.envelope = Envelope(type: env.type, time: env.time)
        var w = CanonicalWriter()
        event.body.writeFieldsForDisplay(&w)
        // Stored strings are escaped: none can forge a line or a column, or reach the terminal.
        var line =
            "\(view.seq)\t\(local.text(device: env.device, time: env.time))\t\(env.device.shown)\t\(env.type.shown)"
        line += "\t\(env.app.shownOrDash)\t\(w.text)"
        if let id = env.id { line += "\tid=\(id.shown)" }
        if let s = env.source {
            line += "\tsource=\(s.path.map(\.shown) ?? "?")"
            if let st = s.stream { line += " stream=\(st.shown)" }
            if let l = s.locatorJSON { line += " at=\(l.shown)" }
        }
        return line + "\n"
    }
}

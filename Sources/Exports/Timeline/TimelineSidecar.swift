import Projections
package import RecordFormat
package import SmartStack

/// What made a timeline, written beside it (`export timeline`'s `.meta.json`, docs/queries.md
/// "Timelines"), so that the timeline never has to say so itself.
package struct TimelineSidecar {
    /// The policy the decisions were made under.
    package var policy: Policy
    /// The tool's version.
    package var tool: String
    /// The policy's words and the chain head at export.
    package var context: TimelineContext
    /// When the timeline was written.
    package var exportedAt: Timestamp
    /// `timesketch`, `timesketch-csv` or `case`.
    package var format: String
    /// The timeline's file name.
    package var file: String
    /// The devices exported.
    package var devices: [String]
    /// The interval exported, microseconds since 1970.
    package var from: Int64, to: Int64
    /// The lines written of each kind.
    package var lines: [TimelineRow.Kind: Int]
    /// Whether the store passed its quick check.
    package var verified: Bool
    /// The command's arguments, as given.
    package var arguments: [String]

    package init(
        policy: Policy, tool: String, context: TimelineContext, exportedAt: Timestamp, format: String, file: String,
        devices: [String], from: Int64, to: Int64, lines: [TimelineRow.Kind: Int], verified: Bool, arguments: [String]
    ) {
        self.policy = policy
        self.tool = tool
        self.context = context
        self.exportedAt = exportedAt
        self.format = format
        self.file = file
        self.devices = devices
        self.from = from
        self.to = to
        self.lines = lines
        self.verified = verified
        self.arguments = arguments
    }

    /// The sidecar's JSON, one line.
    package func writeJSON(_ w: inout CanonicalWriter) {
        w.beginObject()
        ProjectionJSON.writeHeader(&w, policy: policy, tool: tool)
        w.key("chainHead")
        if let head = context.chainHead { w.string(head) } else { w.null() }
        w.key("exportedAt")
        w.time(exportedAt)
        w.key("format")
        w.string(format)
        w.key("file")
        w.string(file)
        w.key("devices")
        w.beginArray()
        for device in devices { w.string(device) }
        w.endArray()
        w.key("from")
        w.time(Timestamp(microseconds: from))
        w.key("to")
        w.time(Timestamp(microseconds: to))
        w.key("lines")
        w.beginObject()
        for kind in TimelineRow.Kind.allCases {
            w.key(kind.rawValue)
            w.integer(lines[kind] ?? 0)
        }
        w.endObject()
        w.key("verified")
        w.bool(verified)
        w.key("arguments")
        w.beginArray()
        for argument in arguments { w.string(argument) }
        w.endArray()
        w.endObject()
    }
}

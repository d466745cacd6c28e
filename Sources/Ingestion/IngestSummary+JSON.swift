public import SmartStack

extension IngestSummary {
    /// `ingest --json`'s answer (docs/queries.md): the counts and the sequence numbers
    /// stored, and the tool that stored them.
    public func writeJSON(_ w: inout CanonicalWriter, tool: String) {
        w.beginObject()
        w.key("stored")
        w.integer(stored)
        w.key("duplicates")
        w.integer(duplicates)
        w.key("rejected")
        w.integer(rejected)
        w.key("firstSeq")
        if let firstSeq { w.integer(Int(firstSeq)) } else { w.null() }
        w.key("lastSeq")
        if let lastSeq { w.integer(Int(lastSeq)) } else { w.null() }
        w.key("tool")
        w.string(tool)
        w.endObject()
    }
}

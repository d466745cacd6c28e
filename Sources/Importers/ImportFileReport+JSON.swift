public import SmartStack

extension ImportFileReport {
    /// `import --json`'s answer (docs/queries.md): each file read with its counts, span,
    /// problems and error, then each file passed over with the reason.
    public static func writeJSON(
        _ w: inout CanonicalWriter, format: String, files: [ImportFileReport], passedOver: [PassedOver], tool: String
    ) {
        w.beginObject()
        w.key("format")
        w.string(format)
        w.key("files")
        w.beginArray()
        for file in files { file.writeJSON(&w) }
        w.endArray()
        w.key("passedOver")
        w.beginArray()
        for p in passedOver {
            w.beginObject()
            w.key("path")
            w.string(p.path)
            w.key("reason")
            w.string(p.reason)
            w.endObject()
        }
        w.endArray()
        w.key("tool")
        w.string(tool)
        w.endObject()
    }

    /// One file's entry of `import --json`.
    public func writeJSON(_ w: inout CanonicalWriter) {
        w.beginObject()
        w.key("path")
        w.string(path)
        for (key, value) in [("link", link), ("stream", stream), ("artifact", artifact), ("container", container)] {
            w.key(key)
            if let value { w.string(value) } else { w.null() }
        }
        for (key, count) in [
            ("recordsRead", recordsRead), ("events", events), ("imported", imported), ("duplicates", duplicates),
            ("deleted", deleted), ("empty", empty), ("skipped", skipped), ("failed", failed),
        ] {
            w.key(key)
            w.integer(count)
        }
        w.key("firstTime")
        if let firstTime { w.string(firstTime) } else { w.null() }
        w.key("lastTime")
        if let lastTime { w.string(lastTime) } else { w.null() }
        w.key("problems")
        w.beginArray()
        for problem in problems { w.string(problem) }
        w.endArray()
        w.key("error")
        if let error { w.string(error) } else { w.null() }
        w.endObject()
    }
}

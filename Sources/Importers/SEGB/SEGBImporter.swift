import SmartStack

/// Reads one Biome SEGB file into events.
public enum SEGBImporter {
    /// Reads the SEGB file at `path`.
    ///
    /// - Parameters:
    ///   - path: the file on disk.
    ///   - context: the artifact's identity (its hash is filled in here).
    ///   - stream: the stream's directory name; nil to take it from the path.
    ///   - seenPath: where the file lies in the extraction when `path` is where a link led.
    /// - Returns: the events and the report. A file that cannot be read returns no events
    ///   and the reason in `report.error`; an unknown stream is listed and skipped.
    public static func read(path: String, context: ArtifactContext, stream: String? = nil, seenPath: String? = nil)
        -> ArtifactImport
    {
        let file: ArtifactFile
        do {
            file = try ArtifactFile(path: path)
        } catch {
            var report = ImportFileReport(path: context.path)
            report.stream = streamName(stream, seenPath: seenPath ?? path)
            return .failure(report, error.message)
        }
        return read(file: file, context: context, stream: stream, seenPath: seenPath ?? path)
    }

    /// The stream of a file: given, or named by where the file lies in the extraction (not
    /// where a link leads), or by its file name.
    static func streamName(_ stream: String?, seenPath named: String) -> String? {
        stream ?? BiomeStream.streamName(fromPath: named)
            ?? BiomeStream.prefixing(fileName: String(named.split(separator: "/").last ?? ""))?.rawValue
    }

    /// Reads an SEGB file already in memory (an archive member); `seenPath` is where it lies.
    static func read(file: ArtifactFile, context: ArtifactContext, stream: String?, seenPath: String) -> ArtifactImport
    {
        var report = ImportFileReport(path: context.path)
        let name = streamName(stream, seenPath: seenPath)
        report.stream = name
        report.artifact = file.sha256
        let segb: SEGBFile
        do {
            segb = try SEGBFile(bytes: file.bytes)
        } catch {
            return .failure(report, "\(error.message) (byte \(error.offset)); nothing from this file was imported")
        }
        report.container = "SEGB v\(segb.version.rawValue)"
        var context = context
        context.sha256 = file.sha256
        var sink = EventSink(context: context)
        let known = name.flatMap(BiomeStream.named)
        var live = [BiomeRecord]()
        for r in segb.records {
            report.recordsRead += 1
            switch r.state {
            case .deleted: report.deleted += 1
            case .empty: report.empty += 1
            case .unknown(let s):
                report.skipped += 1
                report.problem("\(r.offset): record state \(s) is unknown; skipped")
            case .written:
                if r.crcValid == false {
                    report.failed += 1
                    report.problem(
                        "\(r.offset): CRC-32 mismatch (stored 0x\(String(r.storedCRC, radix: 16))); the record is skipped"
                    )
                } else if r.payload.isEmpty {
                    report.empty += 1
                } else if known == nil {
                    report.skipped += 1
                } else {
                    live.append(BiomeRecord(record: r, payload: file.bytes[r.payload]))
                }
            }
        }
        for (index, reason) in segb.ignoredEntries { report.problem("trailer entry \(index): \(reason)") }
        guard let known else {
            report.problem(
                "stream \(name.map { "\"\($0)\"" } ?? "(none: the path names no Biome stream)") is not one StackLedger reads; the file's records are skipped"
            )
            return ArtifactImport(events: [], report: report)
        }
        known.decode(live, into: &sink)
        var result = ArtifactImport(events: [], report: report)
        result.take(sink)
        // Records that yield no event of their own (a background transition closing a
        // foreground interval).
        result.report.skipped += live.filter { !sink.accounted.contains(Int64($0.record.offset)) }.count
        return result
    }
}

extension RecordView {
    /// Decodes arbitrary `bytes` as a stored record, resolving interned strings against
    /// `strings` (id 1 is `strings[0]`), without its checksum: the entry point for fuzzing
    /// the record decoder, which must reject any input with an error and never crash.
    ///
    /// - Throws: `LedgerError` (`.damaged`) when the bytes are not a record.
    public static func decodeUnchecked<T>(
        _ bytes: UnsafeRawBufferPointer, strings: [String],
        _ body: (RecordView) throws -> T
    ) throws -> T {
        var snapshot = StringSnapshot()
        for s in strings { _ = snapshot.append(s) }
        let envelope: Envelope
        let header: RecordCodec.Header
        do {
            (envelope, header) = try RecordCodec.decodeHeader(bytes, strings: snapshot)
        } catch {
            throw LedgerError(.damaged, "not a record: \(error)")
        }
        return try body(
            RecordView(seq: 1, recordedMicros: 0, envelope: envelope, header: header, strings: snapshot.strings))
    }
}

import SmartStack

/// The oracle of `FuzzNDJSON`, run by libFuzzer and by the tests on the kept corpus.
/// One NDJSON line. A line that decodes must round-trip through the
/// canonical writer to the same canonical text.
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var decoder = EventDecoder(sharingStrings: false)
    guard let event = try? decoder.decode(line: UnsafeRawBufferPointer(start: data, count: size)) else { return 0 }
    var w = CanonicalWriter()
    event.writeCanonical(&w)
    let again = w.bytes.withUnsafeBytes { try? decoder.decode(line: $0) }
    guard let again else { fatalError("canonical form of a valid event does not decode: \(w.text)") }
    var w2 = CanonicalWriter()
    again.writeCanonical(&w2)
    if w2.bytes != w.bytes { fatalError("canonical form is not stable: \(w.text) vs \(w2.text)") }
    return 0
}

import Importers

/// The oracle of `FuzzSEGB`, run by libFuzzer and by the tests on the kept corpus.
/// Bytes read as an SEGB file, each live record's payload as protobuf and,
/// where it holds one, an archived object. Errors are expected; crashes are not.
public func fuzzSEGB(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = try? SEGBFile(bytes: bytes) else { return 0 }
    for r in file.records where r.state == .written {
        let payload = bytes[r.payload]
        guard let m = try? ProtobufMessage(payload) else { continue }
        for (number, _) in m.fields {
            if let b = m.bytes(number), BinaryPlist.looksLikePlist(b) { _ = try? KeyedArchive.decode(b) }
            _ = m.message(number)?.string(1)
        }
    }
    return 0
}

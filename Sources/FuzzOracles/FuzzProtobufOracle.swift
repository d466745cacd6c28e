import Importers

/// The oracle of `FuzzProtobuf`, run by libFuzzer and by the tests on the kept corpus.
/// Bytes read as a protobuf message, every nested field followed to the
/// nesting limit. Errors are expected; crashes are not.
public func fuzzProtobuf(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let m = try? ProtobufMessage(bytes[...]) else { return 0 }
    func walk(_ m: ProtobufMessage, _ depth: Int) {
        for (number, _) in m.fields {
            _ = m.string(number)
            _ = m.double(number)
            _ = m.integer(number)
            if depth < 40, let inner = m.message(number) { walk(inner, depth + 1) }
        }
    }
    walk(m, 0)
    return 0
}

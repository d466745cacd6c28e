import Importers

/// The oracle of `FuzzPlist`, run by libFuzzer and by the tests on the kept corpus.
/// Bytes read as a binary plist, as an XML plist, as either, as an NSKeyedArchiver archive
/// (eagerly) and lazily, following the keys the importers read. Errors are expected; crashes are not.
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? BinaryPlist.parse(bytes[...])
    _ = try? XMLPlist.parse(bytes[...])
    _ = try? PropertyList.parse(bytes[...])
    _ = try? KeyedArchive.decode(bytes[...])
    if let archive = try? KeyedArchiveReader(bytes[...]) {
        let root = archive.root
        _ = root["dateInterval"]?["NS.startDate"]?.cocoaTime
        _ = root["shortcut"]?["intent"]?.className
        for p in root["relevanceProviders"]?.array ?? [] {
            _ = p["startDate"]?.cocoaTime
            _ = p["region"]?["radius"]?.number
        }
        _ = root["identifier"]?.string
    }
    return 0
}

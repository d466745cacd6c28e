import FuzzSupport
import Importers

/// libFuzzer entry: bytes read as a binary plist, as an NSKeyedArchiver archive (eagerly)
/// and lazily, following the keys the importers read. Errors are expected; crashes are not.
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? BinaryPlist.parse(bytes[...])
    _ = try? KeyedArchive.decode(bytes[...])
    if let archive = try? KeyedArchiveReader(bytes[...]) {
        let root = archive.root
        _ = root["dateInterval"]?["NS.startDate"]?.cocoaTime
        _ = root["shortcut"]?["intent"]?.className
        for p in root["relevanceProviders"]?.array ?? [] { _ = p["startDate"]?.cocoaTime; _ = p["region"]?["radius"]?.number }
        _ = root["identifier"]?.string
    }
    return 0
}

/// The executable's entry point (SwiftPM names it after the module): libFuzzer's driver.
@_cdecl("FuzzPlist_main")
func fuzzPlistMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzPlist(data, size) }
}

import FuzzOracles
import FuzzSupport

/// The executable's entry point (SwiftPM names it after the module): libFuzzer's driver.
@_cdecl("FuzzArchive_main")
func fuzzArchiveMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzArchive(data, size) }
}

import FuzzOracles
import FuzzSupport

/// The executable's entry point (SwiftPM names it after the module): libFuzzer's driver.
@_cdecl("FuzzPlist_main")
func fuzzPlistMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzPlist(data, size) }
}

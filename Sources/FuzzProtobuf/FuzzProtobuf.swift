import FuzzOracles
import FuzzSupport

/// The executable's entry point (SwiftPM names it after the module): libFuzzer's driver.
@_cdecl("FuzzProtobuf_main")
func fuzzProtobufMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzProtobuf(data, size) }
}

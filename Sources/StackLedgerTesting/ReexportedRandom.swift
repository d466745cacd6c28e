// Generated workloads and the tests that read them draw from the generator the
// calibration's search uses.
@_exported public import struct RecordFormat.SplitMix64

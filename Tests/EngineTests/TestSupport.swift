import Ledger

enum SmartStackTime {
    static func micros(_ text: String) throws -> Int64 { try Timestamp(rfc3339: text).microseconds }
}

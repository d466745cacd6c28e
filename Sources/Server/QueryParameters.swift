import RecordFormat

/// A request's query parameters, read with the same rules the CLI's options have.
struct QueryParameters: Sendable {
    private let values: [String: String]

    init(_ pairs: [(String, String)]) {
        var values = [String: String]()
        for (key, value) in pairs where values[key] == nil { values[key] = value }
        self.values = values
    }

    subscript(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// An RFC 3339 time.
    func time(_ name: String) throws(APIError) -> Timestamp? {
        guard let text = self[name] else { return nil }
        do {
            return try Timestamp(rfc3339: text)
        } catch {
            // The parser's own reason, as the CLI gives it (a year outside 1970-2200, say).
            throw .badParameter(name, "\(text): \(error.reason)")
        }
    }

    /// A required RFC 3339 time.
    func requiredTime(_ name: String) throws(APIError) -> Timestamp {
        guard let t = try time(name) else { throw .badParameter(name, "is required (an RFC 3339 time)") }
        return t
    }

    /// A required string.
    func required(_ name: String) throws(APIError) -> String {
        guard let value = self[name] else { throw .badParameter(name, "is required") }
        return value
    }

    /// A whole number in `range`, or `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(APIError) -> Int {
        guard let text = self[name] else { return fallback }
        guard let n = Int(text), range.contains(n) else {
            throw .badParameter(name, "\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// Sequence numbers, comma-separated (`without=3,7`).
    func sequenceNumbers(_ name: String) throws(APIError) -> Set<UInt64> {
        guard let text = self[name] else { return [] }
        var out = Set<UInt64>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let seq = UInt64(part), seq > 0 else {
                throw .badParameter(name, "name stored events by their sequence numbers (1 or more), comma-separated")
            }
            out.insert(seq)
        }
        return out
    }
}

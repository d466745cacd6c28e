extension String {
    /// The string as text output may print it: control characters (C0, DEL, C1, and the
    /// line and paragraph separators) and backslashes escaped as JSON escapes them, so that a
    /// stored or artifact-derived string can neither start a line, split a column, nor
    /// command the terminal.
    package var shown: String {
        guard unicodeScalars.contains(where: \.needsEscape) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for s in unicodeScalars {
            guard s.needsEscape else {
                out.unicodeScalars.append(s)
                continue
            }
            switch s {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\\": out += "\\\\"
            default:
                let hex = String(s.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return out
    }
}

extension String {
    /// The string with control characters escaped as in `shown`, backslashes kept: for a
    /// message of one line that may quote an input's text.
    package var oneLine: String {
        guard unicodeScalars.contains(where: { $0 != "\\" && $0.needsEscape }) else { return self }
        return split(separator: "\\", omittingEmptySubsequences: false).map { String($0).shown }.joined(separator: "\\")
    }
}

extension Unicode.Scalar {
    fileprivate var needsEscape: Bool {
        value < 0x20 || value == 0x5C || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}

extension String? {
    /// The string as `shown`, or `-` when there is none.
    package var shownOrDash: String { map(\.shown) ?? "-" }
}

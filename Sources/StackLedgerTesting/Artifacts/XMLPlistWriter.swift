/// Writes XML property lists as `plutil -convert xml1` does: the XML declaration, Apple's
/// document type, tab indentation, base64 data, `CF$UID` dictionaries for archive references.
public enum XMLPlistWriter {
    /// Encodes `root` as an XML plist.
    public static func encode(_ root: PlistNode) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(root, indent: 0, into: &out)
        out += "</plist>\n"
        return Array(out.utf8)
    }

    static func write(_ node: PlistNode, indent: Int, into out: inout String) {
        let tab = String(repeating: "\t", count: indent)
        switch node {
        case .string(let s): out += "\(tab)<string>\(escaped(s))</string>\n"
        case .int(let i): out += "\(tab)<integer>\(i)</integer>\n"
        case .real(let d): out += "\(tab)<real>\(d)</real>\n"
        case .bool(let b): out += "\(tab)<\(b ? "true" : "false")/>\n"
        case .data(let bytes): out += "\(tab)<data>\n\(tab)\(base64(bytes))\n\(tab)</data>\n"
        case .uid(let u): write(.dict([("CF$UID", .int(Int64(u)))]), indent: indent, into: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out += "\(tab)<array/>\n"
                return
            }
            out += "\(tab)<array>\n"
            for item in items { write(item, indent: indent + 1, into: &out) }
            out += "\(tab)</array>\n"
        case .dict(let members):
            guard !members.isEmpty else {
                out += "\(tab)<dict/>\n"
                return
            }
            out += "\(tab)<dict>\n"
            for (key, value) in members {
                out += "\(tab)\t<key>\(escaped(key))</key>\n"
                write(value, indent: indent + 1, into: &out)
            }
            out += "\(tab)</dict>\n"
        }
    }

    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var v = UInt32(bytes[i]) << 16
            if n > 1 { v |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { v |= UInt32(bytes[i + 2]) }
            for k in 0..<4 { out.append(k <= n ? table[Int(v >> UInt32(18 - 6 * k)) & 63] : "=") }
            i += 3
        }
        return out
    }
}

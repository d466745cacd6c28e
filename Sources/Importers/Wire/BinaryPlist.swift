/// A reader of Apple's binary property lists (`bplist00`).
///
/// Offsets, counts and references are checked against the buffer; a reference cycle or
/// nesting deeper than `maximumDepth` is an error rather than a hang.
public enum BinaryPlist {
    /// The deepest nesting of arrays and dictionaries read.
    public static let maximumDepth = 64
    /// The most objects a plist may declare.
    public static let maximumObjects = 1 << 20

    /// Whether `bytes` starts like a binary plist.
    public static func looksLikePlist(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 40 && bytes.prefix(8).elementsEqual("bplist00".utf8)
    }

    /// Parses a whole binary plist.
    /// - Throws: `WireFormatError` naming the byte offset (relative to `bytes`' start) of the fault.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(WireFormatError) -> PlistValue {
        let data = Array(bytes)
        guard looksLikePlist(bytes) else {
            throw WireFormatError(offset: 0, message: "not a binary plist (no bplist00 magic)")
        }
        var reader = try Reader(data)
        return try reader.object(reader.top, depth: 0)
    }

    /// The objects of a binary plist, read one at a time.
    struct Reader {
        let b: [UInt8]
        let offsetSize: Int
        let refSize: Int
        let count: Int
        let top: Int
        let table: Int
        /// Objects still allowed to be read: shared references are read each time they
        /// appear, so this bounds the work a hostile file can cause.
        var budget: Int

        init(_ b: [UInt8]) throws(WireFormatError) {
            self.b = b
            let t = b.count - 32
            offsetSize = Int(b[t + 6])
            refSize = Int(b[t + 7])
            let count = Self.be(b, t + 8, 8)
            let top = Self.be(b, t + 16, 8)
            let table = Self.be(b, t + 24, 8)
            guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
                throw WireFormatError(
                    offset: t + 6,
                    message: "binary plist trailer has offset size \(offsetSize) and reference size \(refSize)")
            }
            guard count > 0, count <= UInt64(BinaryPlist.maximumObjects), top < count,
                table >= 8, table < UInt64(t), UInt64(t) - table >= count * UInt64(offsetSize)
            else {
                throw WireFormatError(
                    offset: t,
                    message: "binary plist trailer is inconsistent (\(count) objects, offset table at \(table))")
            }
            self.count = Int(count)
            self.top = Int(top)
            self.table = Int(table)
            budget = 8 * Int(count) + 1024
        }

        static func be(_ b: [UInt8], _ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v = v << 8 | UInt64(b[at + i]) }
            return v
        }

        func offset(of ref: Int) throws(WireFormatError) -> Int {
            guard ref < count else {
                throw WireFormatError(
                    offset: table, message: "binary plist reference \(ref) is past its \(count) objects")
            }
            let o = Self.be(b, table + ref * offsetSize, offsetSize)
            guard o >= 8, o < UInt64(table) else {
                throw WireFormatError(
                    offset: table + ref * offsetSize,
                    message: "binary plist object offset \(o) is outside the object area")
            }
            return Int(o)
        }

        func need(_ at: Int, _ n: Int) throws(WireFormatError) {
            guard n >= 0, at <= table, n <= table - at else {
                throw WireFormatError(offset: at, message: "binary plist object runs past the object area")
            }
        }

        /// The length of a container or string: the low nibble, or an integer that follows.
        func length(_ marker: UInt8, _ at: inout Int) throws(WireFormatError) -> Int {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return low }
            try need(at, 1)
            let intMarker = b[at]
            guard intMarker & 0xF0 == 0x10 else {
                throw WireFormatError(offset: at, message: "binary plist length is not an integer")
            }
            let n = 1 << Int(intMarker & 0x0F)
            guard n <= 8 else {
                throw WireFormatError(offset: at, message: "binary plist length integer of \(n) bytes")
            }
            try need(at + 1, n)
            let v = Self.be(b, at + 1, n)
            at += 1 + n
            guard v < UInt64(b.count) else {
                throw WireFormatError(offset: at, message: "binary plist length \(v) exceeds the file")
            }
            return Int(v)
        }

        func refs(_ at: Int, _ n: Int) throws(WireFormatError) -> [Int] {
            try need(at, n * refSize)
            var out = [Int]()
            out.reserveCapacity(n)
            for i in 0..<n {
                let ref = Self.be(b, at + i * refSize, refSize)
                guard ref < UInt64(count) else {
                    throw WireFormatError(
                        offset: at + i * refSize, message: "binary plist reference \(ref) is past its \(count) objects")
                }
                out.append(Int(ref))
            }
            return out
        }

        /// A dictionary's members as object references, without reading the values.
        func dictionaryRefs(_ ref: Int) throws(WireFormatError) -> [(key: Int, value: Int)]? {
            let start = try offset(of: ref)
            guard b[start] >> 4 == 0xD else { return nil }
            var at = start + 1
            let n = try length(b[start], &at)
            let keys = try refs(at, n)
            let values = try refs(at + n * refSize, n)
            return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }

        /// An array's elements as object references, without reading them.
        func arrayRefs(_ ref: Int) throws(WireFormatError) -> [Int]? {
            let start = try offset(of: ref)
            guard b[start] >> 4 == 0xA else { return nil }
            var at = start + 1
            let n = try length(b[start], &at)
            return try refs(at, n)
        }

        /// Whether the object at `ref` is the ASCII string `text` (compared without decoding).
        func isASCII(_ ref: Int, _ text: StaticString) throws(WireFormatError) -> Bool {
            let start = try offset(of: ref)
            guard b[start] >> 4 == 0x5 else { return false }
            var at = start + 1
            let n = try length(b[start], &at)
            guard n == text.utf8CodeUnitCount else { return false }
            try need(at, n)
            return text.withUTF8Buffer { t in (0..<n).allSatisfy { b[at + $0] == t[$0] } }
        }

        mutating func object(_ ref: Int, depth: Int) throws(WireFormatError) -> PlistValue {
            guard depth <= BinaryPlist.maximumDepth else {
                throw WireFormatError(
                    offset: 0,
                    message: "binary plist nested deeper than \(BinaryPlist.maximumDepth) levels (or a reference cycle)"
                )
            }
            budget -= 1
            guard budget >= 0 else {
                throw WireFormatError(
                    offset: 0,
                    message: "binary plist references its objects too many times (more than 8 reads per object)")
            }
            let start = try offset(of: ref)
            let marker = b[start]
            var at = start + 1
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default:
                    throw WireFormatError(
                        offset: start, message: "binary plist marker 0x\(String(marker, radix: 16)) is unknown")
                }
            case 0x1:
                let n = 1 << Int(marker & 0x0F)
                guard n <= 16 else {
                    throw WireFormatError(offset: start, message: "binary plist integer of \(n) bytes")
                }
                try need(at, n)
                // 16-byte integers keep their low 8 bytes.
                let v = Self.be(b, at + max(0, n - 8), min(n, 8))
                return .integer(n >= 8 ? Int64(bitPattern: v) : Int64(v))
            case 0x2:
                let n = 1 << Int(marker & 0x0F)
                try need(at, n)
                if n == 4 { return .real(Double(Float(bitPattern: UInt32(Self.be(b, at, 4))))) }
                guard n == 8 else { throw WireFormatError(offset: start, message: "binary plist real of \(n) bytes") }
                return .real(Double(bitPattern: Self.be(b, at, 8)))
            case 0x3:
                try need(at, 8)
                return .date(Double(bitPattern: Self.be(b, at, 8)))
            case 0x4:
                let n = try length(marker, &at)
                try need(at, n)
                return .data(Array(b[at..<at + n]))
            case 0x5:
                let n = try length(marker, &at)
                try need(at, n)
                return .string(String(decoding: b[at..<at + n], as: UTF8.self))
            case 0x6:
                let n = try length(marker, &at)
                try need(at, 2 * n)
                var units = [UInt16]()
                units.reserveCapacity(n)
                for i in 0..<n { units.append(UInt16(b[at + 2 * i]) << 8 | UInt16(b[at + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let n = Int(marker & 0x0F) + 1
                try need(at, n)
                let uid = Self.be(b, at, min(n, 8))
                guard uid <= UInt64(Int32.max) else {
                    throw WireFormatError(offset: start, message: "binary plist UID \(uid) is out of range")
                }
                return .uid(Int(uid))
            case 0xA, 0xC:
                let n = try length(marker, &at)
                var items = [PlistValue]()
                for r in try refs(at, n) { items.append(try object(r, depth: depth + 1)) }
                return .array(items)
            case 0xD:
                let n = try length(marker, &at)
                let keys = try refs(at, n)
                let values = try refs(at + n * refSize, n)
                var members = [(String, PlistValue)]()
                for (k, v) in zip(keys, values) {
                    guard case .string(let key) = try object(k, depth: depth + 1) else {
                        throw WireFormatError(offset: start, message: "binary plist dictionary key is not a string")
                    }
                    members.append((key, try object(v, depth: depth + 1)))
                }
                return .dictionary(members)
            default:
                throw WireFormatError(
                    offset: start, message: "binary plist marker 0x\(String(marker, radix: 16)) is unknown")
            }
        }
    }
}

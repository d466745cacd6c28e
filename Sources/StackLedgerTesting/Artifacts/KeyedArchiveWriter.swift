/// A value to archive the way NSKeyedArchiver does.
public indirect enum ArchiveValue: Sendable {
    case string(String)
    case int(Int64)
    case real(Double)
    case bool(Bool)
    /// Cocoa seconds (since 2001-01-01 UTC), archived as an NSDate.
    case date(Double)
    case data([UInt8])
    case null
    /// An object of `className` with keyed members.
    case object(String, [(String, ArchiveValue)])
    /// An NSArray.
    case array([ArchiveValue])
}

/// Writes NSKeyedArchiver archives as binary plists (`bplist00`), independently of the
/// importer's reader, for generating test artifacts.
public enum KeyedArchiveWriter {
    /// Archives `root` under `$top.root`, as a binary plist or, with `xml`, an XML one.
    public static func archive(_ root: ArchiveValue, xml: Bool = false) -> [UInt8] {
        var objects: [PlistNode] = [.string("$null")]
        var classes = [String: Int]()
        func classRef(_ name: String) -> Int {
            if let c = classes[name] { return c }
            objects.append(
                .dict([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
            classes[name] = objects.count - 1
            return objects.count - 1
        }
        /// Appends `v` to `$objects` when it is an object, returning the member's node.
        func member(_ v: ArchiveValue) -> PlistNode {
            switch v {
            case .int(let i): return .int(i)
            case .real(let d): return .real(d)
            case .bool(let b): return .bool(b)
            case .null: return .uid(0)
            default: return .uid(add(v))
            }
        }
        func add(_ v: ArchiveValue) -> Int {
            switch v {
            case .string(let s): objects.append(.string(s))
            case .data(let d): objects.append(.data(d))
            case .date(let t):
                let c = classRef("NSDate")
                objects.append(.dict([("NS.time", .real(t)), ("$class", .uid(c))]))
            case .array(let items):
                let slot = objects.count
                objects.append(.string("placeholder"))
                let refs = items.map(member)
                objects[slot] = .dict([("NS.objects", .array(refs)), ("$class", .uid(classRef("NSArray")))])
                return slot
            case .object(let name, let members):
                let slot = objects.count
                objects.append(.string("placeholder"))
                var dict = members.map { ($0.0, member($0.1)) }
                dict.append(("$class", .uid(classRef(name))))
                objects[slot] = .dict(dict)
                return slot
            case .int, .real, .bool, .null:
                objects.append(member(v))
            }
            return objects.count - 1
        }
        let root = add(root)
        let top = PlistNode.dict([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dict([("root", .uid(root))])), ("$objects", .array(objects)),
        ])
        return xml ? XMLPlistWriter.encode(top) : BinaryPlistWriter.encode(top)
    }
}

/// A binary plist node.
public indirect enum PlistNode: Sendable {
    case string(String)
    case int(Int64)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case uid(Int)
    case array([PlistNode])
    case dict([(String, PlistNode)])
}

/// Writes binary plists (`bplist00`).
public enum BinaryPlistWriter {
    /// Encodes `root` as a binary plist.
    public static func encode(_ root: PlistNode) -> [UInt8] {
        var flat = [PlistNode]()
        var children = [[Int]]()
        func flatten(_ n: PlistNode) -> Int {
            let index = flat.count
            flat.append(n)
            children.append([])
            switch n {
            case .array(let items): children[index] = items.map(flatten)
            case .dict(let members):
                let keys = members.map { flatten(.string($0.0)) }
                let values = members.map { flatten($0.1) }
                children[index] = keys + values
            default: break
            }
            return index
        }
        _ = flatten(root)
        let refSize = flat.count < 256 ? 1 : flat.count < 65536 ? 2 : 4
        var out = Array("bplist00".utf8)
        var offsets = [Int]()
        func be(_ v: UInt64, _ n: Int) {
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(UInt8((v >> (8 * UInt64(i))) & 0xFF)) }
        }
        func header(_ type: UInt8, _ count: Int) {
            if count < 15 {
                out.append(type << 4 | UInt8(count))
            } else {
                out.append(type << 4 | 0x0F)
                out.append(0x13)
                be(UInt64(count), 8)
            }
        }
        for (i, n) in flat.enumerated() {
            offsets.append(out.count)
            switch n {
            case .bool(let b): out.append(b ? 0x09 : 0x08)
            case .int(let v):
                out.append(0x13)
                be(UInt64(bitPattern: v), 8)
            case .real(let d):
                out.append(0x23)
                be(d.bitPattern, 8)
            case .data(let d):
                header(0x4, d.count)
                out += d
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) {
                    header(0x5, s.utf8.count)
                    out += Array(s.utf8)
                } else {
                    let units = Array(s.utf16)
                    header(0x6, units.count)
                    for u in units {
                        out.append(UInt8(u >> 8))
                        out.append(UInt8(u & 0xFF))
                    }
                }
            case .uid(let u):
                out.append(0x83)
                be(UInt64(u), 4)
            case .array:
                header(0xA, children[i].count)
                for c in children[i] { be(UInt64(c), refSize) }
            case .dict:
                header(0xD, children[i].count / 2)
                for c in children[i] { be(UInt64(c), refSize) }
            }
        }
        let tableOffset = out.count
        for o in offsets { be(UInt64(o), 8) }
        out += [0, 0, 0, 0, 0, 0, 8, UInt8(refSize)]
        be(UInt64(flat.count), 8)
        be(0, 8)
        be(UInt64(tableOffset), 8)
        return out
    }
}

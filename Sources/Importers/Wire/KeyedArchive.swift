/// Resolves an NSKeyedArchiver archive (a binary plist with `$objects` and `$top`) into a
/// plain tree of values.
///
/// Foundation collections become arrays and dictionaries (`NS.objects`, `NS.keys`),
/// `NSDate` a `.date`, strings and data their values; any other object becomes a dictionary
/// of its decoded keys plus `"$class"` with its class name. Shared objects are expanded
/// where they are used; a reference cycle or nesting past `maximumDepth` is an error.
public enum KeyedArchive {
    /// The deepest object nesting resolved.
    public static let maximumDepth = 48

    /// Parses `bytes` (a binary plist) and resolves its root object.
    /// - Throws: `WireFormatError` for a malformed plist or archive.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(WireFormatError) -> PlistValue {
        let archive = try KeyedArchiveReader(bytes)
        var resolver = Resolver(archive: archive)
        return try resolver.resolve(uid: archive.rootUID, depth: 0)
    }

    /// Expands every object, reading each `$objects` entry through the lazy reader.
    private struct Resolver {
        let archive: KeyedArchiveReader
        var budget: Int

        init(archive: KeyedArchiveReader) {
            self.archive = archive
            budget = 8 * archive.objectCount + 1024
        }

        mutating func resolve(uid: Int, depth: Int) throws(WireFormatError) -> PlistValue {
            budget -= 1
            guard depth <= KeyedArchive.maximumDepth, budget >= 0 else {
                throw WireFormatError(
                    offset: 0,
                    message:
                        "NSKeyedArchiver archive nested deeper than \(KeyedArchive.maximumDepth) levels, or a reference cycle"
                )
            }
            return try resolve(value: archive.entry(uid), depth: depth)
        }

        mutating func resolve(value: PlistValue, depth: Int) throws(WireFormatError) -> PlistValue {
            switch value {
            case .string("$null"): return .null
            case .uid(let u): return try resolve(uid: u, depth: depth + 1)
            case .array(let items):
                var out = [PlistValue]()
                for item in items { out.append(try resolve(value: item, depth: depth + 1)) }
                return .array(out)
            case .dictionary(let members):
                guard case .uid(let classRef)? = value["$class"] else {
                    var out = [(String, PlistValue)]()
                    for (k, v) in members { out.append((k, try resolve(value: v, depth: depth + 1))) }
                    return .dictionary(out)
                }
                guard let className = archive.className(value) else {
                    throw WireFormatError(
                        offset: 0, message: "NSKeyedArchiver class reference \(classRef) does not name a class")
                }
                return try object(className: className, value, depth: depth)
            default: return value
            }
        }

        mutating func object(className: String, _ value: PlistValue, depth: Int) throws(WireFormatError) -> PlistValue {
            switch className {
            case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
                return try resolve(value: value["NS.objects"] ?? .array([]), depth: depth + 1)
            case "NSDictionary", "NSMutableDictionary":
                guard case .array(let keys)? = value["NS.keys"], case .array(let values)? = value["NS.objects"],
                    keys.count == values.count
                else {
                    throw WireFormatError(
                        offset: 0, message: "NSKeyedArchiver dictionary without matching NS.keys and NS.objects")
                }
                var out = [(String, PlistValue)]()
                for (k, v) in zip(keys, values) {
                    let key = try resolve(value: k, depth: depth + 1)
                    out.append((key.string ?? "\(key)", try resolve(value: v, depth: depth + 1)))
                }
                return .dictionary(out)
            case "NSDate":
                return .date(value["NS.time"]?.cocoaTime ?? 0)
            case "NSString", "NSMutableString":
                return try resolve(value: value["NS.string"] ?? .null, depth: depth + 1)
            case "NSData", "NSMutableData":
                return try resolve(value: value["NS.data"] ?? .null, depth: depth + 1)
            case "NSUUID":
                guard case .data(let bytes)? = value["NS.uuidbytes"], bytes.count == 16 else { return .null }
                return .string(Self.uuidString(bytes))
            default:
                guard case .dictionary(let members) = value else { return value }
                var out = [(String, PlistValue)]()
                out.append(("$class", .string(className)))
                for (k, v) in members where k != "$class" {
                    out.append((k, try resolve(value: v, depth: depth + 1)))
                }
                return .dictionary(out)
            }
        }

        static func uuidString(_ b: [UInt8]) -> String {
            let hex = b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
            return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
                separator: "-")
        }
    }
}

/// Reads an NSKeyedArchiver archive lazily: only the objects a caller asks for are parsed,
/// so a large archived blob that is never read costs nothing.
///
/// ```swift
/// let archive = try KeyedArchiveReader(bytes)
/// let start = archive.root["dateInterval"]?["NS.startDate"]?.cocoaTime
/// ```
public final class KeyedArchiveReader {
    /// Where the objects come from: a binary plist read lazily, or an XML plist read whole.
    private enum Source {
        case binary(BinaryPlist.Reader, objects: [Int])
        case xml(objects: [PlistValue])
    }

    private var source: Source
    /// The root object's uid.
    let rootUID: Int
    /// Class names by their object's uid (an archive names few classes, used many times).
    private var classNames = [Int: String]()

    /// Opens `bytes` as an archive, in either form of property list.
    /// - Throws: `WireFormatError` when it is not a property list or not a keyed archive.
    public init(_ bytes: ArraySlice<UInt8>) throws(WireFormatError) {
        if !BinaryPlist.looksLikePlist(bytes) && XMLPlist.looksLikePlist(bytes) {
            let top = try XMLPlist.parse(bytes)
            guard case .array(let objects)? = top["$objects"], let root = Self.root(of: top["$top"]) else {
                throw WireFormatError(
                    offset: 0, message: "XML plist is not an NSKeyedArchiver archive (no $objects / $top.root)")
            }
            source = .xml(objects: objects)
            rootUID = root
            return
        }
        guard BinaryPlist.looksLikePlist(bytes) else {
            throw WireFormatError(
                offset: 0, message: "not a property list (neither the bplist00 magic nor an XML plist's opening)")
        }
        let reader = try BinaryPlist.Reader(Array(bytes))
        guard let top = try reader.dictionaryRefs(reader.top) else {
            throw WireFormatError(
                offset: 0,
                message: "binary plist is not an NSKeyedArchiver archive (its top object is not a dictionary)")
        }
        var objects: [Int]?
        var root: Int?
        for member in top {
            if try reader.isASCII(member.key, "$objects") {
                objects = try reader.arrayRefs(member.value)
            } else if try reader.isASCII(member.key, "$top") {
                var r = reader
                root = Self.root(of: try r.object(member.value, depth: 0))
            }
        }
        guard let objects, let root else {
            throw WireFormatError(
                offset: 0, message: "binary plist is not an NSKeyedArchiver archive (no $objects / $top.root)")
        }
        source = .binary(reader, objects: objects)
        rootUID = root
    }

    /// `$top.root` as NSKeyedArchiver writes it; else the first reference there.
    private static func root(of top: PlistValue?) -> Int? {
        if case .uid(let u)? = top?["root"] { return u }
        if case .dictionary(let members)? = top, case .uid(let u)? = members.first?.1 { return u }
        return nil
    }

    /// How many objects `$objects` holds.
    var objectCount: Int {
        switch source {
        case .binary(_, let objects): objects.count
        case .xml(let objects): objects.count
        }
    }

    /// The root object.
    public var root: ArchivedValue { ArchivedValue(archive: self, value: (try? entry(rootUID)) ?? .null) }

    /// Object `uid` of `$objects`, parsed (its members stay references).
    func entry(_ uid: Int) throws(WireFormatError) -> PlistValue {
        guard uid >= 0, uid < objectCount else {
            throw WireFormatError(
                offset: 0, message: "NSKeyedArchiver reference \(uid) is past its \(objectCount) objects")
        }
        let v: PlistValue
        switch source {
        case .binary(var reader, let objects):
            // The reader's budget spans every entry read, as one walk of the file.
            v = try reader.object(objects[uid], depth: BinaryPlist.maximumDepth - 2)
            source = .binary(reader, objects: objects)
        case .xml(let objects):
            v = objects[uid]
        }
        return v == .string("$null") ? .null : v
    }

    /// Follows a reference; other values are returned as they are.
    func follow(_ v: PlistValue) -> PlistValue {
        if case .uid(let u) = v { return (try? entry(u)) ?? .null }
        return v
    }

    /// The class name of an archived object.
    func className(_ v: PlistValue) -> String? {
        guard case .uid(let c)? = v["$class"] else { return nil }
        if let name = classNames[c] { return name }
        let name = (try? entry(c))?["$classname"]?.string
        if let name { classNames[c] = name }
        return name
    }
}

@available(*, unavailable)
extension KeyedArchiveReader: Sendable {}

/// A value inside a keyed archive, resolved one step at a time.
public struct ArchivedValue {
    let archive: KeyedArchiveReader
    let value: PlistValue

    /// Member `key` of an archived object or dictionary; nil when absent or null.
    public subscript(key: String) -> ArchivedValue? {
        if value["NS.keys"] != nil,
            archive.className(value).map({ $0 == "NSDictionary" || $0 == "NSMutableDictionary" }) == true
        {
            guard case .array(let keys)? = value["NS.keys"], case .array(let values)? = value["NS.objects"] else {
                return nil
            }
            for (k, v) in zip(keys, values) where archive.follow(k).string == key {
                return wrap(archive.follow(v))
            }
            return nil
        }
        guard let member = value[key] else { return nil }
        return wrap(archive.follow(member))
    }

    private func wrap(_ v: PlistValue) -> ArchivedValue? {
        v == .null ? nil : ArchivedValue(archive: archive, value: v)
    }

    /// The object's class name (`INRelevantShortcut`), when it is an object.
    public var className: String? { archive.className(value) }

    /// The value as text: a string, or an NSString object.
    public var string: String? {
        if let s = value.string { return s }
        return self["NS.string"]?.value.string
    }

    /// The value as an integer.
    public var integer: Int64? { value.integer }

    /// The value as a number.
    public var number: Double? { value.number }

    /// The value as Cocoa seconds: an NSDate, or a number.
    public var cocoaTime: Double? {
        if let t = value.cocoaTime { return t }
        return value["NS.time"]?.cocoaTime
    }

    /// The elements of an NSArray or NSSet.
    public var array: [ArchivedValue]? {
        guard case .array(let items)? = value["NS.objects"] else { return nil }
        return items.map { ArchivedValue(archive: archive, value: archive.follow($0)) }
    }
}

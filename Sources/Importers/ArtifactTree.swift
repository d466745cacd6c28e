import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One file an import reads: where it lies in the extraction, and the file read.
public struct ArtifactEntry: Sendable, Equatable {
    /// The path as the extraction shows it (under the root; `source.path` is made from it).
    public var path: String
    /// The file whose bytes are read: `path` itself, or where the links on it lead.
    public var readPath: String
    /// Where a link on the path leads, relative to the root, when the path holds a link.
    public var link: String?
}

/// An entry of a tree that an import did not read, and why.
public struct PassedOver: Sendable, Equatable {
    /// The path under the root.
    public var path: String
    /// Why it was not read.
    public var reason: String
    /// Where it leads, for a link.
    public var linkTarget: String? = nil

    /// An entry passed over, and why.
    public init(path: String, reason: String, linkTarget: String? = nil) {
        self.path = path
        self.reason = reason
        self.linkTarget = linkTarget
    }
}

/// The files of an extraction tree, by one rule for every importer: regular files are read;
/// a link is followed when it leads to a regular file or a directory inside the root, never
/// outside it and never round a loop; anything else (a FIFO, a socket, a device, a link
/// that leads nowhere) is passed over and listed with the reason.
struct ArtifactTree {
    /// The root, as given (paths are reported under it) and with its links resolved.
    let root: String
    let realRoot: String
    /// Whether a file, by its path relative to the root, is one the import reads.
    let wanted: (String) -> Bool
    /// Whether links are followed (an import of named files or streams) or only listed (a
    /// whole extraction, whose links point at the device's own paths: `var -> private/var`).
    var followsLinks = true

    private(set) var entries: [ArtifactEntry] = []
    private(set) var passedOver: [PassedOver] = []
    private var visited: Set<FileIdentity> = []

    init(root: String, wanted: @escaping (String) -> Bool) {
        self.root = root
        self.realRoot = Self.resolved(root) ?? root
        self.wanted = wanted
    }

    /// Walks the directory `seen` (under the root), whose real path is `real`.
    mutating func walk(directory seen: String, real: String) {
        guard let identity = FileIdentity(path: real), visited.insert(identity).inserted else {
            passedOver.append(
                PassedOver(path: relative(seen), reason: "a link back to a directory already read (a loop)"))
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: real) else {
            passedOver.append(
                PassedOver(path: relative(seen), reason: "a directory that cannot be listed; check its permissions"))
            return
        }
        for name in names.sorted() {
            add(seen: seen + "/" + name, real: real + "/" + name)
        }
    }

    /// Adds what `seen` is: a file to read, a directory to walk, or an entry passed over.
    mutating func add(seen: String, real: String) {
        var st = stat()
        guard lstat(real, &st) == 0 else {
            passedOver.append(
                PassedOver(path: relative(seen), reason: "cannot be examined: \(String(cString: strerror(errno)))"))
            return
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            walk(directory: seen, real: real)
        case S_IFREG:
            if wanted(relative(seen)) {
                entries.append(
                    ArtifactEntry(path: seen, readPath: real, link: real == seen ? nil : relativeToRoot(real)))
            }
        case S_IFLNK:
            guard followsLinks else {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: real)) ?? "?"
                passedOver.append(
                    PassedOver(
                        path: relative(seen), reason: "a link to \(target); links in an extraction are not followed",
                        linkTarget: target))
                return
            }
            followLink(seen: seen, real: real)
        default:
            passedOver.append(
                PassedOver(
                    path: relative(seen),
                    reason: "not a regular file (\(Self.kind(st.st_mode))); only regular files are read"))
        }
    }

    private mutating func followLink(seen: String, real: String) {
        guard let target = Self.resolved(real) else {
            let reason =
                errno == ELOOP ? "a link that loops" : "a link that leads nowhere (\(String(cString: strerror(errno))))"
            passedOver.append(PassedOver(path: relative(seen), reason: reason))
            return
        }
        guard isInsideRoot(target) else {
            passedOver.append(
                PassedOver(
                    path: relative(seen),
                    reason: "a link to \(target), outside the extraction root; give --root a directory that contains it"
                ))
            return
        }
        // The target's path holds no link any more: it is classified as any entry is.
        add(seen: seen, real: target)
    }

    func isInsideRoot(_ realPath: String) -> Bool {
        realPath == realRoot || realPath.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// `seen` relative to the root.
    func relative(_ seen: String) -> String {
        seen == root
            ? (seen as NSString).lastPathComponent
            : String(seen.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
    }

    /// A resolved path relative to the resolved root.
    func relativeToRoot(_ realPath: String) -> String {
        realPath == realRoot
            ? "." : String(realPath.dropFirst(realRoot.hasSuffix("/") ? realRoot.count : realRoot.count + 1))
    }

    /// The path with every link resolved; nil (with `errno` set) when that fails.
    static func resolved(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file or directory"
        }
    }
}

/// A file's device and inode: the same directory reached twice is the same identity.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

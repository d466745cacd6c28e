/// One entry of an extraction archive, as its header describes it.
struct ExtractionMember {
    /// What the entry is.
    enum Kind: Equatable {
        case file
        case directory
        /// A symbolic link, with its target as stored.
        case link(String)
        /// Anything else (a hard link, a device, a FIFO), by the archive's name for it.
        case other(String)
    }

    /// The path inside the extraction, as stored (leading `./` removed).
    var path: String
    var kind: Kind
    /// The uncompressed size in bytes.
    var size: Int64
    /// The compressed size, when the archive stores it per entry (zip).
    var compressedSize: Int64?
    /// The modification time in microseconds since 1970 (UTC), when stored.
    var modified: Int64?

    /// Why the path cannot be taken as a path inside the extraction (`..`, absolute), or nil.
    var unsafePathReason: String? {
        if path.hasPrefix("/") { return "an absolute path; extraction members must lie under its root" }
        if path.split(separator: "/").contains("..") {
            return "a path with `..`; extraction members must lie under its root"
        }
        return nil
    }

    /// The path with a leading `./` and trailing `/` removed.
    static func tidy(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        while p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }
}

/// Reads one member's bytes, chunk by chunk, up to its end.
struct MemberBytes {
    /// Fills the buffer's start; returns how many bytes it wrote, 0 at the member's end.
    let next: (UnsafeMutableRawBufferPointer) throws(ImportError) -> Int

    /// The whole member, refused past `limit` bytes.
    func readAll(limit: Int, path: String) throws(ImportError) -> [UInt8] {
        var out = [UInt8]()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        while true {
            let n = try next(chunk)
            if n == 0 { return out }
            guard out.count + n <= limit else {
                throw ImportError(path: path, message: "is larger than \(limit) bytes, the limit for one artifact file")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
    }
}

/// The limits an extraction archive's members are held to.
enum ArchiveLimits {
    /// The largest member read: 1 GiB.
    static let memberBytes: Int64 = 1 << 30
    /// The largest layout file read (a real IconState.plist holds kilobytes): 256 MiB.
    static let layoutBytes = 256 << 20
    /// The most a member may expand over its compressed bytes.
    static let expansion: Int64 = 100
    /// Below this many bytes the expansion is not judged (a small file of zeros is fine).
    static let expansionFloor: Int64 = 1 << 20
    /// In a compressed stream, where a member's compressed bytes are not known until its
    /// end, how far its output may run before its ratio so far is judged (the start of a
    /// database is often empty pages).
    static let streamingFloor: Int64 = 64 << 20
}

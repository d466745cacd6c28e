import Foundation
import Ledger

#if canImport(Glibc)
    import Glibc
#endif

/// An extraction archive StackLedger reads in place: zip, tar, or gzip-compressed tar.
enum ExtractionArchive {
    case zip(ZipArchive)
    case tar(TarArchive)

    /// The archive at `path`, by its first bytes (its name when they do not tell); nil when
    /// it is none of them.
    init?(path: String) throws(ImportError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw ImportError(path: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let n = pread(fd, &head, 512, 0)
        if n >= 4 && head[0] == 0x50 && head[1] == 0x4B && (head[2] == 3 || head[2] == 5) {
            self = .zip(ZipArchive(path: path))
        } else if n >= 2 && head[0] == 0x1F && head[1] == 0x8B {
            self = .tar(TarArchive(path: path, gzip: true))
        } else if n == 512 && String(decoding: head[257..<262], as: UTF8.self) == "ustar" {
            self = .tar(TarArchive(path: path, gzip: false))
        } else if path.hasSuffix(".tar") && n == 512 && TarArchive.checksumHolds(head) {
            self = .tar(TarArchive(path: path, gzip: false))
        } else {
            return nil
        }
    }

    /// The archive's file, for reports.
    var path: String {
        switch self {
        case .zip(let z): z.path
        case .tar(let t): t.path
        }
    }

    func forEachMember(_ body: (ExtractionMember, MemberBytes) throws -> Void) throws {
        switch self {
        case .zip(let z): try z.forEachMember(body)
        case .tar(let t): try t.forEachMember(body)
        }
    }
}

/// One pass over an extraction archive: what is read from memory is imported as it comes,
/// SQLite databases (with their `-wal`, `-shm` or `-journal`) are copied to a private temporary
/// folder and imported after the pass, the rest is listed.
struct ArchiveImport {
    let options: ExtractionImport.Options
    let archive: ExtractionArchive

    func run(into ledger: Ledger) throws -> ExtractionImport.Report {
        var report = ExtractionImport.Report()
        // Removed on every way out: here, on SIGINT, SIGTERM or SIGHUP, and, after a kill,
        // by the next command that makes a temporary folder.
        let scratch = try TemporaryFiles.makeDirectory("extraction")
        defer { TemporaryFiles.remove(scratch) }
        var databases = [(format: ImportRun.Format, member: String, copy: String)]()
        var versionFile: (ArtifactFile, String)?
        // Layout files wait in the private folder, each read when its turn comes.
        var layouts = [(copy: String, member: ExtractionMember)]()
        var folders = [String: Int]()
        // Members met more than once at one path: the first's hash, and the paths whose
        // copies differ, each refused with both hashes.
        var firstHash = [String: String]()
        var duplicates = [String: String]()
        // Paths whose first member was stored as it came (Biome files), before a second one.
        var storedAsRead = Set<String>()
        /// Whether `path` was met before: true (skip it) when it was, with the same content;
        /// a differing content refuses the path.
        func isRepeat(_ path: String, sha256: String) -> Bool {
            guard let first = firstHash[path] else {
                firstHash[path] = sha256
                return false
            }
            if first != sha256 && duplicates[path] == nil {
                duplicates[path] =
                    "the archive holds two members at this path with different content (sha256 \(first) and \(sha256)); neither is evidence alone, so the path is refused"
            }
            return true
        }
        let archivePath = archive.path
        // What the members read may expand to, together: the ratio a single member is held
        // to, over the whole archive's bytes (several small bombs are one large one).
        var status = stat()
        let archiveBytes: Int64 = stat(archivePath, &status) == 0 ? Int64(status.st_size) : 0
        let outputBudget = ArchiveLimits.expansion * max(archiveBytes, ArchiveLimits.expansionFloor)
        var declaredOutput: Int64 = 0
        var earliest: Timestamp?
        let preparation = try BulkPreparation(ledger: ledger)
        func record(_ result: ArtifactImport, family: String) throws {
            let stored = try ImportRun.store(result, into: ledger)
            options.onFile?(stored)
            earliest = ExtractionImport.earlier(earliest, stored)
            report.files.append(stored)
            report.families.append(family)
        }
        // Biome files are read and stored on other threads while the archive is read.
        let reads = OrderedReads(limit: 8, ledger: ledger) { stored, family in
            options.onFile?(stored)
            earliest = ExtractionImport.earlier(earliest, stored)
            report.files.append(stored)
            report.families.append(family)
        }
        try archive.forEachMember { member, bytes in
            if let reason = member.unsafePathReason {
                report.passedOver.append(PassedOver(path: member.path, reason: reason + "; not read"))
                return
            }
            switch member.kind {
            case .directory: return
            case .link(let target):
                report.passedOver.append(
                    PassedOver(
                        path: member.path, reason: "a link to \(target); links in an extraction are not followed",
                        linkTarget: target))
                return
            case .other(let what):
                if ExtractionPaths.role(of: member.path) != nil {
                    report.passedOver.append(
                        PassedOver(
                            path: member.path, reason: "\(what), not a regular file; only regular files are read"))
                }
                return
            case .file: break
            }
            let role = ExtractionPaths.role(of: member.path) ?? Self.sidecarRole(member.path)
            guard let role else { return }
            if case .notRead(let reason) = role {
                report.notRead.append(PassedOver(path: member.path, reason: reason))
                return
            }
            if member.compressedSize != nil { declaredOutput += member.size }
            if let refusal = Self.refusal(member)
                ?? (declaredOutput > outputBudget
                    ? "would bring what the archive's members expand to past \(outputBudget) bytes, \(ArchiveLimits.expansion) times the archive's \(archiveBytes); it is refused as part of a decompression bomb"
                    : nil)
            {
                var failed = ImportFileReport(path: member.path)
                failed.error = refusal
                try reads.submitFailure(failed, family: Self.family(of: role))
                return
            }
            do {
                switch role {
                case .artifact(.knowledgec), .artifact(.powerlog), .artifact(.atx):
                    // A database and its -wal, -shm or -journal share a private folder, as
                    // SQLite wants.
                    let base = Self.databasePath(of: member.path)
                    let dir = scratch + "/\(folders[base] ?? folders.count)"
                    if folders[base] == nil {
                        folders[base] = folders.count
                        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                    }
                    let copy = dir + "/" + ((member.path as NSString).lastPathComponent)
                    if FileManager.default.fileExists(atPath: copy) {
                        // The same path again: compared with the first, never written over it.
                        let again = dir + "/.again"
                        defer { try? FileManager.default.removeItem(atPath: again) }
                        try Self.copy(bytes, to: again, path: archivePath)
                        _ = isRepeat(member.path, sha256: try ArtifactFile.sha256(path: again))
                        return
                    }
                    try Self.copy(bytes, to: copy, path: archivePath)
                    _ = isRepeat(member.path, sha256: try ArtifactFile.sha256(path: copy))
                    if case .artifact(let format) = role, !Self.isSidecar(member.path) {
                        databases.append((format, member.path, copy))
                    }
                case .artifact(let format):
                    let limit = format.isLayout ? ArchiveLimits.layoutBytes : Int(ArchiveLimits.memberBytes)
                    let file = ArtifactFile(
                        bytes: try bytes.readAll(limit: limit, path: member.path), modified: member.modified ?? 0)
                    if isRepeat(member.path, sha256: file.sha256) { return }
                    if format.isLayout {
                        let copy = scratch + "/layout-\(layouts.count)"
                        try Data(file.bytes).write(to: URL(fileURLWithPath: copy))
                        layouts.append((copy, member))
                    } else {
                        // Imported as it comes: an archive's Biome files are not held together.
                        storedAsRead.insert(member.path)
                        let context = ArtifactContext(
                            sha256: file.sha256, path: member.path, device: options.device, preparation: preparation)
                        try reads.submit(family: format.rawValue, bytes: file.bytes.count) {
                            SEGBImporter.read(file: file, context: context, stream: nil, seenPath: member.path)
                        }
                    }
                case .systemVersion:
                    let data = try bytes.readAll(limit: SystemVersionImporter.maximumBytes, path: member.path)
                    let file = ArtifactFile(bytes: data, modified: member.modified ?? 0)
                    if isRepeat(member.path, sha256: file.sha256) { return }
                    versionFile = (file, member.path)
                case .notRead: break
                }
            } catch let error as ImportError {
                // The member alone fails (a decompression bomb, a damaged stream inside it).
                var failed = ImportFileReport(path: member.path)
                failed.error = error.message
                try reads.submitFailure(failed, family: Self.family(of: role))
            }
        }
        try reads.finish()
        for (path, message) in duplicates.sorted(by: { $0.key < $1.key }) {
            var failed = ImportFileReport(path: path)
            failed.error =
                message
                + (storedAsRead.contains(path)
                    ? "; the first was stored as it was read, before the second was met: its events name its hash as source.artifact"
                    : "")
            report.files.append(failed)
            report.families.append(ExtractionPaths.role(of: path).map(Self.family(of:)) ?? "database")
        }
        databases.removeAll { duplicates[$0.member] != nil }
        layouts.removeAll { duplicates[$0.member.path] != nil }
        if let (_, path) = versionFile, duplicates[path] != nil { versionFile = nil }
        // A log or journal whose database the archive does not hold is read by nothing.
        let held = Set(databases.map(\.member))
        for base in folders.keys.sorted() where !held.contains(base) {
            report.passedOver.append(
                PassedOver(
                    path: base + "-wal, -shm or -journal",
                    reason: "a SQLite log or journal whose database is not in the extraction; not read"))
        }
        let platform = versionFile.flatMap { try? SystemVersionImporter.read(file: $0.0, path: $0.1).platform } ?? "iOS"
        for format in [ImportRun.Format.knowledgec, .powerlog, .atx] {
            for db in databases.filter({ $0.format == format }).sorted(by: { $0.member < $1.member }) {
                let context = ArtifactContext(
                    sha256: "", path: db.member, device: options.device, preparation: preparation)
                let copy = db.copy
                var powerlog = PowerLogImporter.Options()
                powerlog.skipsInference = !layouts.isEmpty
                let readOptions = powerlog
                // Read on another thread while this one commits its events as they come.
                let stored = try ImportRun.readAndStore(
                    size: ImportRun.size(of: copy), context: context, into: ledger
                ) { context in
                    switch format {
                    case .knowledgec: return KnowledgeCImporter.read(path: copy, context: context)
                    case .powerlog: return PowerLogImporter.read(path: copy, context: context, options: readOptions)
                    default: return ATXInfoSuggestionStoreImporter.read(path: copy, context: context)
                    }
                }
                options.onFile?(stored)
                earliest = ExtractionImport.earlier(earliest, stored)
                report.files.append(stored)
                report.families.append(format.rawValue)
            }
        }
        let span = ExtractionImport.evidenceSpan(report.files)
        /// A layout file read back from the private folder, dated as its member.
        func load(_ layout: (copy: String, member: ExtractionMember)) -> ArtifactFile? {
            FileManager.default.contents(atPath: layout.copy).map {
                ArtifactFile(bytes: [UInt8]($0), modified: layout.member.modified ?? 0)
            }
        }
        for layout in layouts.sorted(by: { $0.member.path < $1.member.path }) {
            let member = layout.member
            guard let file = load(layout) else {
                throw ImportError(path: scratch, message: "cannot read back a layout file from the private folder")
            }
            // An archive's clock dates its members: a layout dated by it says so.
            let time = IconStateImporter.LayoutTime(given: options.layoutTime, uncertain: true, evidenceSpan: span)
            let context = ArtifactContext(
                sha256: file.sha256, path: member.path, device: options.device, preparation: preparation)
            let platform = platform == "iPadOS" ? "iPadOS" : "iOS"
            if (member.path as NSString).lastPathComponent == HomeScreenPagesImporter.fileName {
                let result = HomeScreenPagesImporter.read(
                    file: file, context: context, time: time, platform: platform)
                try record(result, family: ImportRun.Format.homescreenpages.rawValue)
            } else {
                let result = IconStateImporter.read(file: file, context: context, time: time, platform: platform)
                try record(result, family: ImportRun.Format.iconstate.rawValue)
            }
        }
        ExtractionImport.noteLayoutDifferences(layouts.map { l in (l.member.path, { load(l) }) }, in: &report)
        if let (file, path) = versionFile {
            report.deviceInfo = try ExtractionImport(options: options).deviceInfo(
                file, relative: path, at: earliest, links: report.passedOver, into: ledger)
        }
        return report
    }

    /// A database's `-wal`, `-shm` or `-journal`: copied beside it.
    static func sidecarRole(_ path: String) -> ExtractionPaths.Role? {
        guard isSidecar(path) else { return nil }
        return ExtractionPaths.role(of: databasePath(of: path))
    }

    static func isSidecar(_ path: String) -> Bool {
        path.hasSuffix("-wal") || path.hasSuffix("-shm") || path.hasSuffix("-journal")
    }

    /// The database a sidecar belongs to (the path itself for a database).
    static func databasePath(of path: String) -> String {
        guard isSidecar(path) else { return path }
        return String(path.dropLast(path.hasSuffix("-journal") ? 8 : 4))
    }

    static func family(of role: ExtractionPaths.Role) -> String {
        if case .artifact(let format) = role { return format.rawValue }
        return "system"
    }

    /// Why a member is not read: past 1 GiB, or expanding more than 100 times.
    static func refusal(_ member: ExtractionMember) -> String? {
        if member.size > ArchiveLimits.memberBytes {
            return
                "is \(member.size) bytes uncompressed; the limit for one artifact file is \(ArchiveLimits.memberBytes) bytes (1 GiB)"
        }
        if let compressed = member.compressedSize, member.size > ArchiveLimits.expansionFloor,
            member.size > ArchiveLimits.expansion * max(1, compressed)
        {
            return
                "expands from \(compressed) to \(member.size) bytes, more than \(ArchiveLimits.expansion) times; it is refused as a decompression bomb"
        }
        return nil
    }

    /// Copies a member to `path`, a private file.
    static func copy(_ bytes: MemberBytes, to path: String, path archive: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw ImportError(path: path, message: "cannot be created: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        var total: Int64 = 0
        while true {
            let n = try bytes.next(chunk)
            if n == 0 { return }
            total += Int64(n)
            guard total <= ArchiveLimits.memberBytes else {
                throw ImportError(path: archive, message: "has a member larger than 1 GiB")
            }
            if let error = SystemIO.writeAll(fd, UnsafeRawBufferPointer(rebasing: chunk[0..<n])) {
                throw ImportError(path: path, message: "cannot be written: \(String(cString: strerror(error)))")
            }
        }
    }

    /// A new folder only this process can read.
}

/// The extraction archive readers, for the archive fuzz target.
package enum ArchiveWalk {
    /// Reads every member of the archive at `path` (its first `limit` bytes each), as an
    /// import would, and returns how many members it met.
    /// - Throws: what reading the archive throws.
    package static func walk(path: String, limit: Int = 1 << 20) throws -> Int {
        guard let archive = try ExtractionArchive(path: path) else { return 0 }
        var members = 0
        try archive.forEachMember { member, bytes in
            members += 1
            _ = member.unsafePathReason
            if member.kind == .file { _ = try? bytes.readAll(limit: limit, path: member.path) }
        }
        return members
    }

    /// Reads every member of the archive at `path` whole, as an import would, and returns
    /// how many members it met; the first member that cannot be read (its local header, its
    /// data or its CRC-32) throws, where an import would report that member alone.
    package static func readEvery(path: String) throws -> Int {
        guard let archive = try ExtractionArchive(path: path) else { return 0 }
        var members = 0
        try archive.forEachMember { member, bytes in
            members += 1
            if member.kind == .file { _ = try bytes.readAll(limit: 1 << 30, path: member.path) }
        }
        return members
    }
}

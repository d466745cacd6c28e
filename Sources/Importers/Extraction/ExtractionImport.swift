import Foundation
public import Ledger
import SmartStack

#if canImport(Glibc)
    import Glibc
#endif

/// Imports a whole device extraction (a folder holding the device's paths from its root,
/// `private/var/...`): every artifact StackLedger reads is found by its path, read by its
/// importer (which checks the content) and stored whole or not at all, and
/// `SystemVersion.plist` becomes the device's `device.info`. Links are listed, never
/// followed.
public struct ExtractionImport: Sendable {
    /// How to import.
    public struct Options: Sendable {
        /// The device the extraction belongs to.
        public var device = Envelope.defaultDevice
        /// The device's time zone (IANA name), written into `device.info`.
        public var timeZone: String?
        /// The time of the layout files' records; nil for their modification times.
        public var layoutTime: Timestamp?
        /// Called after each file with its report (for progress).
        public var onFile: (@Sendable (ImportFileReport) -> Void)?

        /// Creates options.
        public init() {}
    }

    /// What the import did.
    public struct Report: Sendable {
        /// One report per artifact file, in the order read (by family, then path).
        public var files: [ImportFileReport] = []
        /// The family of each file report, by index (`segb`, `knowledgec`, ...).
        public var families: [String] = []
        /// Files StackLedger knows and does not read, with the reason.
        public var notRead: [PassedOver] = []
        /// Entries not read at all (links, FIFOs, ...), with the reason.
        public var passedOver: [PassedOver] = []
        /// The `device.info` written from SystemVersion.plist, when there was one.
        public var deviceInfo: ImportFileReport?

        /// Per artifact family: files found, events imported, duplicates, records skipped
        /// and failed, and files that failed; one line each, tab-separated.
        public var familySummary: String {
            var out = "family\tfiles\timported\tduplicates\tskipped\tfailed records\tfailed files\n"
            for family in ExtractionImport.order.map(\.rawValue) {
                let reports = files.indices.filter { families[$0] == family }.map { files[$0] }
                guard !reports.isEmpty else { continue }
                let sum = { (f: (ImportFileReport) -> Int) in reports.map(f).reduce(0, +) }
                out +=
                    "\(family)\t\(reports.count)\t\(sum(\.imported))\t\(sum(\.duplicates))\t\(sum(\.skipped))\t\(sum(\.failed))\t\(reports.filter { $0.error != nil }.count)\n"
            }
            return out
        }
    }

    let options: Options

    /// Creates an import.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The families, in the order they are imported (layouts after the records they
    /// explain, so that the layout's late arrival costs one refold).
    static let order: [ImportRun.Format] = [.segb, .knowledgec, .powerlog, .atx, .iconstate, .homescreenpages]

    /// Imports the extraction at `path` (a folder, `.zip`, `.tar`, `.tar.gz` or `.tgz`)
    /// into `ledger`.
    /// - Throws: `ImportError` when `path` is neither a folder nor an archive StackLedger
    ///   reads; `LedgerError` when the store fails.
    public func run(path: String, into ledger: Ledger) throws -> Report {
        let root = ImportRun.absolute(path)
        var st = stat()
        guard stat(root, &st) == 0 else { throw ImportError(path: path, message: "does not exist") }
        if (st.st_mode & S_IFMT) == S_IFDIR { return try runFolder(root, into: ledger) }
        guard (st.st_mode & S_IFMT) == S_IFREG, let archive = try ExtractionArchive(path: root) else {
            throw ImportError(
                path: path,
                message:
                    "is not a folder, .zip, .tar, .tar.gz or .tgz; give the extraction's folder or archive (the device's paths from its root)",
                isUsage: true)
        }
        return try ArchiveImport(options: options, archive: archive).run(into: ledger)
    }

    private func runFolder(_ root: String, into ledger: Ledger) throws -> Report {
        var tree = ArtifactTree(root: root) {
            ExtractionPaths.role(of: $0) != nil || ArchiveImport.sidecarRole($0) != nil
        }
        tree.followsLinks = false
        tree.walk(directory: root, real: ArtifactTree.resolved(root) ?? root)
        var report = Report(passedOver: tree.passedOver)
        var byFormat = [ImportRun.Format: [ArtifactEntry]]()
        var systemVersion: ArtifactEntry?
        for entry in tree.entries.sorted(by: { $0.path < $1.path }) {
            switch ExtractionPaths.role(of: tree.relative(entry.path)) {
            case .artifact(let format)?: byFormat[format, default: []].append(entry)
            case .systemVersion?: systemVersion = entry
            case .notRead(let reason)?:
                report.notRead.append(PassedOver(path: tree.relative(entry.path), reason: reason))
            case nil:
                // A database's log or journal is read with it; without it, by nothing.
                let base = ArchiveImport.databasePath(of: entry.path)
                if base != entry.path && !FileManager.default.fileExists(atPath: base) {
                    report.passedOver.append(
                        PassedOver(
                            path: tree.relative(entry.path),
                            reason: "a SQLite log or journal whose database is not in the extraction; not read"))
                }
            }
        }
        var versionFile: ArtifactFile?
        var versionError: String?
        if let systemVersion {
            do { versionFile = try ArtifactFile(path: systemVersion.readPath) } catch { versionError = error.message }
        }
        let platform = versionFile.flatMap { try? SystemVersionImporter.read(file: $0, path: "").platform } ?? "iOS"
        var earliest: Timestamp?
        for format in Self.order {
            guard let files = byFormat[format] else { continue }
            var runOptions = ImportRun.Options()
            runOptions.root = root
            runOptions.device = options.device
            runOptions.layoutTime = options.layoutTime
            runOptions.evidenceSpan = Self.evidenceSpan(report.files)
            runOptions.platform = platform == "iPadOS" ? "iPadOS" : "iOS"
            runOptions.onFile = options.onFile
            runOptions.infersStacks = byFormat[.iconstate] == nil && byFormat[.homescreenpages] == nil
            let reports = try ImportRun(format: format, options: runOptions).run(files: files, root: root, into: ledger)
            for r in reports { earliest = Self.earlier(earliest, r) }
            report.files += reports
            report.families += reports.map { _ in format.rawValue }
        }
        let layoutFiles = (byFormat[.iconstate] ?? []) + (byFormat[.homescreenpages] ?? [])
        Self.noteLayoutDifferences(
            layoutFiles.map { entry in (tree.relative(entry.path), { try? ArtifactFile(path: entry.readPath) }) },
            in: &report)
        if let systemVersion {
            let relative = tree.relative(systemVersion.path)
            if let versionFile {
                report.deviceInfo = try deviceInfo(
                    versionFile, relative: relative, at: earliest, links: report.passedOver, into: ledger)
            } else {
                var failed = ImportFileReport(path: relative)
                failed.error = versionError
                report.deviceInfo = failed
            }
        }
        return report
    }

    /// The span the events of `files` cover, in microseconds; nil when they hold none.
    static func evidenceSpan(_ files: [ImportFileReport]) -> ClosedRange<Int64>? {
        let first = files.compactMap { $0.firstTime.flatMap { try? Timestamp(rfc3339: $0).microseconds } }.min()
        let last = files.compactMap { $0.lastTime.flatMap { try? Timestamp(rfc3339: $0).microseconds } }.max()
        guard let first, let last, first <= last else { return nil }
        return first...last
    }

    /// Adds to the report of DesiredIconState.plist and of HomeScreenPages how each differs
    /// from the IconState.plist of the same `Library` folder: they are further records of
    /// the same stacks.
    /// Each file is read when it is compared, two at a time.
    static func noteLayoutDifferences(
        _ files: [(path: String, load: () -> ArtifactFile?)], in report: inout Report
    ) {
        for other in files {
            let name = (other.path as NSString).lastPathComponent
            let library: Substring
            if name == "DesiredIconState.plist", let range = other.path.range(of: "SpringBoard/", options: .backwards) {
                library = other.path[..<range.lowerBound]
            } else if name == HomeScreenPagesImporter.fileName,
                let range = other.path.range(of: "DuetExpertCenter/", options: .backwards)
            {
                library = other.path[..<range.lowerBound]
            } else {
                continue
            }
            guard let recorded = files.first(where: { $0.path == library + "SpringBoard/IconState.plist" }),
                let otherFile = other.load(), let recordedFile = recorded.load(),
                let a = HomeScreenLayout.read(otherFile, name: name),
                let b = HomeScreenLayout.read(recordedFile, name: "IconState.plist"),
                let index = report.files.firstIndex(where: { $0.path == other.path })
            else { continue }
            let lines = a.differences(from: b, name: name)
            if lines.isEmpty { report.files[index].problem("the same stacks as IconState.plist") }
            for line in lines { report.files[index].problem(line) }
        }
    }

    /// The earlier of `earliest` and the first event time of a file imported without error.
    static func earlier(_ earliest: Timestamp?, _ report: ImportFileReport) -> Timestamp? {
        guard report.error == nil, let first = report.firstTime.flatMap({ try? Timestamp(rfc3339: $0) }) else {
            return earliest
        }
        return earliest.map { min($0, first) } ?? first
    }

    /// Writes `device.info` from SystemVersion.plist, dated at the extraction's earliest
    /// event so that every answer knows the platform.
    /// The time zone is `--time-zone`, else the one the extraction's `localtime` link names
    /// (`links`: the links passed over).
    func deviceInfo(
        _ file: ArtifactFile, relative: String, at earliest: Timestamp?, links: [PassedOver], into ledger: Ledger
    ) throws -> ImportFileReport {
        let time = earliest ?? Timestamp(microseconds: 0)
        let linked = options.timeZone == nil ? ExtractionPaths.timeZone(links: links) : nil
        do {
            var (event, fileReport) = try SystemVersionImporter.event(
                file: file, relative: relative, device: options.device, time: time,
                timeZone: options.timeZone ?? linked?.name)
            if let linked {
                fileReport.problem("time zone \(linked.name), from the link \(linked.path)")
            }
            let stored = try ImportRun.store(
                ArtifactImport(events: event.map { [$0] } ?? [], report: fileReport), into: ledger)
            options.onFile?(stored)
            return stored
        } catch let error as ImportError {
            var failed = ImportFileReport(path: relative)
            failed.error = error.message
            return failed
        }
    }
}

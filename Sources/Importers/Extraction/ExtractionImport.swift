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
    static let order: [ImportRun.Format] = [.segb, .knowledgec, .powerlog, .iconstate]

    /// Imports the extraction at `path` into `ledger`.
    /// - Throws: `ImportError` when `path` is not a directory; `LedgerError` when the
    ///   store fails.
    public func run(path: String, into ledger: Ledger) throws -> Report {
        let root = ImportRun.absolute(path)
        var st = stat()
        guard stat(root, &st) == 0 else { throw ImportError(path: path, message: "does not exist") }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            throw ImportError(
                path: path,
                message: "is not a directory; give the folder that holds the device's paths (private/var/...)",
                isUsage: true)
        }
        var tree = ArtifactTree(root: root) { ExtractionPaths.role(of: $0) != nil }
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
            case nil: break
            }
        }
        var platform = "iOS"
        if let systemVersion, let read = try? SystemVersionImporter.read(path: systemVersion.readPath) {
            platform = read.platform
        }
        var earliest: Timestamp?
        for format in Self.order {
            guard let files = byFormat[format] else { continue }
            var runOptions = ImportRun.Options()
            runOptions.root = root
            runOptions.device = options.device
            runOptions.layoutTime = options.layoutTime
            runOptions.platform = platform == "iPadOS" ? "iPadOS" : "iOS"
            runOptions.onFile = options.onFile
            let reports = try ImportRun(format: format, options: runOptions).run(files: files, root: root, into: ledger)
            for r in reports {
                if let first = r.firstTime.flatMap({ try? Timestamp(rfc3339: $0) }), r.error == nil {
                    earliest = earliest.map { min($0, first) } ?? first
                }
            }
            report.files += reports
            report.families += reports.map { _ in format.rawValue }
        }
        if let systemVersion {
            report.deviceInfo = try deviceInfo(systemVersion, tree: tree, at: earliest, into: ledger)
        }
        return report
    }

    /// Writes `device.info` from SystemVersion.plist, dated at the extraction's earliest
    /// event so that every answer knows the platform.
    private func deviceInfo(_ entry: ArtifactEntry, tree: ArtifactTree, at earliest: Timestamp?, into ledger: Ledger)
        throws -> ImportFileReport
    {
        let relative = tree.relative(entry.path)
        let time = earliest ?? Timestamp(microseconds: 0)
        do {
            var (event, fileReport) = try SystemVersionImporter.event(
                path: entry.readPath, relative: relative, device: options.device, time: time,
                timeZone: options.timeZone)
            if let event {
                switch Result(catching: { () throws(LedgerError) in try ledger.append([event]) }) {
                case .success(let receipt):
                    fileReport.imported = receipt.stored
                    fileReport.duplicates = receipt.duplicates
                case .failure(let e):
                    guard e.kind == .idConflict else { throw e }
                    fileReport.error = "\(e.message); nothing from this file was imported"
                }
            }
            options.onFile?(fileReport)
            return fileReport
        } catch let error as ImportError {
            var failed = ImportFileReport(path: relative)
            failed.error = error.message
            return failed
        }
    }
}

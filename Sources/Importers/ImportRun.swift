import Dispatch
import Foundation
import Ingestion
public import Ledger
import SmartStack
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Imports artifacts into a ledger: each file is read whole, then its events are appended
/// in one commit, so a file is imported entirely or not at all. Reading the next file
/// overlaps the append of the previous one.
public struct ImportRun: Sendable {
    /// The artifact formats.
    public enum Format: String, CaseIterable, Sendable {
        /// Biome SEGB files (one file, or a tree such as `Biome/streams/`).
        case segb
        /// A knowledgeC.db.
        case knowledgec
        /// A PowerLog database (`CurrentPowerlog.PLSQL`).
        case powerlog
        /// SpringBoard's `IconState.plist` or `DesiredIconState.plist` (a file, or a
        /// directory holding them).
        case iconstate
        /// duetexpertd's `_ATXInfoSuggestionStore.db`.
        case atx
        /// duetexpertd's `HomeScreenPages` (a file, or a directory holding it).
        case homescreenpages

        /// Whether the format's files record the home screen's layout.
        var isLayout: Bool { self == .iconstate || self == .homescreenpages }
    }

    /// How to import.
    public struct Options: Sendable {
        /// The extraction's root: `source.path` is given relative to it. Default: the
        /// directory imported, or a lone file's directory.
        public var root: String?
        /// The device the artifacts belong to.
        public var device = Envelope.defaultDevice
        /// The Biome stream of a lone SEGB file whose path does not name it.
        public var stream: String?
        /// The time of a layout file's record (`--layout-time`); nil for the file's
        /// modification time.
        public var layoutTime: Timestamp?
        /// The span the extraction's other evidence covers (microseconds), when known: a
        /// layout file's time more than a year outside it is no layout time.
        public var evidenceSpan: ClosedRange<Int64>?
        /// Whether stacks are inferred from PowerLog's on-screen records (not when a layout
        /// file of the same extraction records them).
        public var infersStacks = true
        /// The device's platform, for the stacks a layout file lists.
        public var platform = "iOS"
        /// Files from this size on are committed while they are read (when their turn
        /// comes before their end), so that storing overlaps reading.
        public var committedWhileReadFrom = 16 << 20
        /// Called after each file with its report (for progress).
        public var onFile: (@Sendable (ImportFileReport) -> Void)?

        /// Creates options.
        public init() {}
    }

    let format: Format
    let options: Options

    /// Creates a run.
    public init(format: Format, options: Options = Options()) {
        self.format = format
        self.options = options
    }

    /// What an import of a path reads: its files in order, the root their `source.path`
    /// is relative to, and the entries of a tree it does not read.
    public struct Listing: Sendable {
        /// The files to read, sorted by path.
        public var files: [ArtifactEntry]
        /// The extraction root.
        public var root: String
        /// Entries of the tree not read (not regular files, links outside the root or
        /// round a loop), with the reason.
        public var passedOver: [PassedOver]
    }

    /// The files `path` denotes, by the rule of `ArtifactTree`, and the root.
    /// - Throws: `ImportError` when `path` does not exist, lies outside `--root`, or is a
    ///   link that leads outside it.
    public func files(at path: String) throws(ImportError) -> Listing {
        let absolute = Self.absolute(path)
        var st = stat()
        guard stat(absolute, &st) == 0 else {
            throw ImportError(
                path: path, message: lstat(absolute, &st) == 0 ? "is a link that leads nowhere" : "does not exist")
        }
        let isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
        let root =
            options.root.map(Self.absolute)
            ?? (isDirectory ? absolute : (absolute as NSString).deletingLastPathComponent)
        guard absolute == root || absolute.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw ImportError(
                path: path,
                message:
                    "is not inside the extraction root \(options.root ?? root); give --root a directory that contains it",
                isUsage: true)
        }
        let format = format
        var tree = ArtifactTree(root: root) { relative in
            let parts = relative.split(separator: "/")
            let name = parts.last.map(String.init) ?? relative
            if name.hasPrefix(".") || name.hasSuffix("-wal") || name.hasSuffix("-shm") || name.hasSuffix("-journal") {
                return false
            }
            if format == .iconstate { return IconStateImporter.fileNames.contains(name) }
            if format == .atx { return name == "_ATXInfoSuggestionStore.db" }
            if format == .homescreenpages { return name == HomeScreenPagesImporter.fileName }
            return !(format == .segb && parts.contains { $0.lowercased() == "tombstone" })
        }
        guard let real = ArtifactTree.resolved(absolute), tree.isInsideRoot(real) || absolute == root else {
            throw ImportError(
                path: path,
                message:
                    "leads through a link outside the extraction root \(options.root ?? root); give --root a directory that contains it",
                isUsage: true)
        }
        if isDirectory {
            tree.walk(directory: absolute, real: absolute)
            return Listing(files: tree.entries.sorted { $0.path < $1.path }, root: root, passedOver: tree.passedOver)
        }
        // A lone file is read whatever its name; what is not a regular file is refused as it is read.
        return Listing(
            files: [
                ArtifactEntry(path: absolute, readPath: real, link: real == absolute ? nil : tree.relativeToRoot(real))
            ],
            root: root, passedOver: [])
    }

    /// Reads one file (no storing); its events are encoded by `preparation`.
    public func read(file: ArtifactEntry, root: String, preparation: BulkPreparation = BulkPreparation())
        -> ArtifactImport
    {
        read(file: file, root: root, preparation: preparation, feed: nil)
    }

    /// Reads one file, publishing its prepared batches to `feed` (when given) as they come;
    /// marks the feed's end.
    func read(file: ArtifactEntry, root: String, preparation: BulkPreparation, feed: BatchFeed?) -> ArtifactImport {
        let result = readFile(file, root: root, preparation: preparation, feed: feed)
        if let feed { feed.finish(after: result) }
        return result
    }

    private func readFile(_ file: ArtifactEntry, root: String, preparation: BulkPreparation, feed: BatchFeed?)
        -> ArtifactImport
    {
        let seen = file.path
        let relative =
            seen == root
            ? (seen as NSString).lastPathComponent
            : String(seen.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
        var context = ArtifactContext(sha256: "", path: relative, device: options.device, preparation: preparation)
        context.feed = feed
        var result: ArtifactImport
        switch format {
        case .segb:
            result = SEGBImporter.read(
                path: file.readPath, context: context, stream: options.stream, seenPath: file.path)
        case .knowledgec: result = KnowledgeCImporter.read(path: file.readPath, context: context)
        case .powerlog:
            var powerlog = PowerLogImporter.Options()
            powerlog.skipsInference = !options.infersStacks
            result = PowerLogImporter.read(path: file.readPath, context: context, options: powerlog)
        case .atx: result = ATXInfoSuggestionStoreImporter.read(path: file.readPath, context: context)
        case .iconstate:
            result = IconStateImporter.read(
                path: file.readPath, context: context, layoutTime: options.layoutTime, platform: options.platform,
                evidenceSpan: options.evidenceSpan)
        case .homescreenpages:
            result = HomeScreenPagesImporter.read(
                path: file.readPath, context: context, layoutTime: options.layoutTime, platform: options.platform,
                evidenceSpan: options.evidenceSpan)
        }
        result.report.link = file.link
        return result
    }

    /// Imports every file `path` denotes into `ledger`.
    ///
    /// - Returns: one report per file, in file order. A file that cannot be read, or whose
    ///   events cannot be stored (an id stored with other content), has `error` set and
    ///   added nothing; the others are stored.
    /// - Throws: `ImportError` for a bad path; `LedgerError` when the store fails (files
    ///   whose reports were delivered stay stored).
    public func run(path: String, into ledger: Ledger) throws -> [ImportFileReport] {
        let listing = try files(at: path)
        return try run(files: listing.files, root: listing.root, into: ledger)
    }

    /// Imports `files` (as `files(at:)` lists them, with their root) into `ledger`.
    public func run(files: [ArtifactEntry], root: String, into ledger: Ledger) throws -> [ImportFileReport] {
        // Readers decode files ahead of the appends, in parallel; `slots` bounds how many
        // decoded files wait in memory.
        let readers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let preparation = try BulkPreparation(ledger: ledger)
        try StackBound.catchUp(ledger)
        let slots = DispatchSemaphore(value: Self.filesWaiting)
        // A large file is committed while it is read, when its turn comes before its end.
        let feeds = files.map { Self.size(of: $0.readPath) >= options.committedWhileReadFrom ? BatchFeed() : nil }
        let done = files.map { _ in DispatchSemaphore(value: 0) }
        let results = Mutex<[Int: ArtifactImport]>([:])
        let nextFile = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        for _ in 0..<readers {
            Thread {
                while true {
                    slots.wait()
                    let i = nextFile.add(1, ordering: .relaxed).oldValue
                    if stop.load(ordering: .relaxed) || i >= files.count {
                        slots.signal()
                        return
                    }
                    let result = read(file: files[i], root: root, preparation: preparation, feed: feeds[i])
                    results.withLock { $0[i] = result }
                    done[i].signal()
                }
            }.start()
        }
        defer {
            stop.store(true, ordering: .relaxed)
            for _ in 0...readers { slots.signal() }
        }
        var reports = [ImportFileReport]()
        var next = 0
        while next < files.count {
            let readAlready = done[next].wait(timeout: .now()) == .success
            if readAlready { done[next].signal() }
            if let feed = feeds[next], !readAlready {
                let report = try Self.store(
                    streaming: feed, preparedBy: preparation, size: Self.size(of: files[next].readPath), into: ledger
                ) {
                    done[next].wait()
                    defer { slots.signal() }
                    return results.withLock { $0.removeValue(forKey: next)! }
                }
                options.onFile?(report)
                reports.append(report)
                next += 1
                continue
            }
            // The next file, and those after it read meanwhile or soon after: stored
            // together, in one commit (one flush to disk), each whole or not at all. The
            // readers go on while it commits.
            done[next].wait()
            var group = [results.withLock { $0.removeValue(forKey: next)! }]
            slots.signal()
            next += 1
            while next < files.count, group.count < Self.filesWaiting,
                group.reduce(0, { $0 + $1.spooled.bytes }) < Self.groupBytes,
                done[next].wait(timeout: .now() + .milliseconds(Self.groupWaitMilliseconds)) == .success
            {
                group.append(results.withLock { $0.removeValue(forKey: next)! })
                slots.signal()
                next += 1
            }
            for report in try Self.store(group, into: ledger) {
                options.onFile?(report)
                reports.append(report)
            }
        }
        return reports
    }

    /// Commits a large file's batches as its reader publishes them, then takes its result
    /// from `read`: the file is stored whole when it was read whole, else not at all.
    static func store(
        streaming feed: BatchFeed, preparedBy preparation: BulkPreparation, size: Int, into ledger: Ledger,
        read: () -> ArtifactImport
    ) throws -> ImportFileReport {
        let outcome = Result { () throws(LedgerError) in
            try ledger.appendEachInOneCommit(
                preparedBy: preparation, bytes: size * 4, decode: { try Event(record: $0) },
                [{ store in try feed.forEachBatch(store) }])[0]
        }
        let result = read()
        switch feed.outcome {
        case .complete: return try Self.finish(result.report, outcome.flatMap { $0 })
        case .bypassed: return try Self.store(result, into: ledger)
        case .failed, nil:
            var report = result.report
            if report.error == nil, let failure = result.spooled.failure {
                report.error = "\(failure); nothing from this file was imported"
            }
            return report
        }
    }

    /// Reads a file with `read` on another thread, its context feeding a commit here as
    /// the batches come: the file is stored whole when it was read whole, else not at all.
    static func readAndStore(
        size: Int, context: ArtifactContext, into ledger: Ledger,
        _ read: @escaping @Sendable (ArtifactContext) -> ArtifactImport
    ) throws -> ImportFileReport {
        let feed = BatchFeed()
        var fed = context
        fed.feed = feed
        let result = Mutex<ArtifactImport?>(nil)
        let done = DispatchSemaphore(value: 0)
        let reading = fed
        Thread {
            let r = read(reading)
            feed.finish(after: r)
            result.withLock { $0 = r }
            done.signal()
        }.start()
        return try store(streaming: feed, preparedBy: context.preparation, size: size, into: ledger) {
            done.wait()
            return result.withLock { $0! }
        }
    }

    /// Whether a run over `files` should write its commits into the store's file
    /// (`Ledger.Options.writesInPlace`): when a file is large enough to be committed while
    /// it is read, whose one commit's pages would otherwise all be held in memory. Small
    /// files share commits of at most `groupBytes`, kept in memory as usual: in place, each
    /// commit would also flush the whole map.
    public func writesInPlace(_ files: [ArtifactEntry]) -> Bool {
        files.contains { Self.size(of: $0.readPath) >= options.committedWhileReadFrom }
    }

    /// The size of the file at `path`; 0 when it cannot be told.
    static func size(of path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// How many files read ahead may wait to be stored.
    static let filesWaiting = 8
    /// How many bytes of prepared events one shared commit takes at most.
    static let groupBytes = 32 << 20
    /// How long a commit waits for the next file to be read, to take it too.
    static let groupWaitMilliseconds = 20

    /// Appends one file's events in one commit; the report says what was stored. An id
    /// stored with other content fails the file alone.
    /// - Throws: `LedgerError` when the store fails.
    static func store(_ result: ArtifactImport, into ledger: Ledger) throws -> ImportFileReport {
        try store([result], into: ledger)[0]
    }

    /// Appends files' events in one commit, each file whole or not at all; the reports say
    /// what was stored. An id stored with other content fails its file alone.
    /// - Throws: `LedgerError` when the store fails.
    static func store(_ results: [ArtifactImport], into ledger: Ledger) throws -> [ImportFileReport] {
        var reports = results.map(\.report)
        var stored = [(index: Int, spooled: SpooledEvents)]()
        var newStacks = Set<StackName>()
        for (i, result) in results.enumerated() where result.report.error == nil && result.spooled.count > 0 {
            if let failure = result.spooled.failure {
                reports[i].error = "\(failure); nothing from this file was imported"
            } else if let message = try stackBoundError(result.spooled.createdStacks, besides: newStacks, in: ledger) {
                reports[i].error = message
            } else {
                newStacks.formUnion(result.spooled.createdStacks)
                stored.append((i, result.spooled))
            }
        }
        guard let preparation = stored.first?.spooled.preparation else { return reports }
        if stored.allSatisfy({ $0.spooled.preparation === preparation }) {
            let outcomes = try append(stored.map(\.spooled), preparedBy: preparation, into: ledger)
            for ((i, _), outcome) in zip(stored, outcomes) { reports[i] = try finish(reports[i], outcome) }
        } else {
            // Files prepared apart (read alone) are stored one by one.
            for (i, spooled) in stored {
                reports[i] = try finish(
                    reports[i], try append([spooled], preparedBy: spooled.preparation, into: ledger)[0])
            }
        }
        for (i, spooled) in stored where reports[i].error == nil {
            try StackBound.remember(spooled.createdStacks, in: ledger)
        }
        return reports
    }

    /// Why a file's events may not be stored, when they would take a device past the
    /// stacks it may have (`StackBound`); nil when they fit.
    static func stackBoundError(_ created: Set<StackName>, besides pending: Set<StackName>, in ledger: Ledger) throws
        -> String?
    {
        let over = try StackBound.excess(created, besides: pending, in: ledger)
        guard let first = over.first else { return nil }
        return
            "it would create \(over.count) stack(s) past the limit: a device's events create at most \(Event.maximumStacksPerDevice) stacks (device \"\(first.device)\", first past it: \"\(first.stack)\"); nothing from this file was imported"
    }

    private static func append(_ files: [SpooledEvents], preparedBy preparation: BulkPreparation, into ledger: Ledger)
        throws -> [Result<AppendReceipt, LedgerError>]
    {
        let produce = files.map { spooled in
            { @Sendable (store: (PreparedBatch) throws -> Void) throws -> Void in
                do {
                    try spooled.forEachBatch(store)
                } catch let error as SpooledEvents.ReadError {
                    throw LedgerError(.storage, "cannot read the events back: \(error.message)")
                }
            }
        }
        return try ledger.appendEachInOneCommit(
            preparedBy: preparation, bytes: files.reduce(0) { $0 + $1.bytes }, decode: { try Event(record: $0) },
            produce)
    }

    /// The report once the file's commit succeeded or failed: an id stored with other
    /// content fails the file alone; any other failure is the store's.
    private static func finish(_ report: ImportFileReport, _ appended: Result<AppendReceipt, LedgerError>) throws
        -> ImportFileReport
    {
        var report = report
        switch appended {
        case .success(let receipt):
            report.imported = receipt.stored
            report.duplicates = receipt.duplicates
        case .failure(let e):
            guard e.kind == .idConflict else { throw e }
            report.error = "\(e.message); nothing from this file was imported"
        }
        return report
    }

    /// `path` made absolute and lexically tidied (`.`, `..` and repeated slashes), links
    /// left as they are: the path as the extraction shows it.
    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts = [Substring]()
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}

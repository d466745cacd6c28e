import Dispatch
import Foundation
public import Ledger
import SmartStack
import Synchronization

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

    /// The files `path` denotes, sorted, and the root their `source.path` is relative to.
    /// - Throws: `ImportError` when `path` does not exist or lies outside `--root`.
    public func files(at path: String) throws(ImportError) -> (files: [String], root: String) {
        var isDirectory: ObjCBool = false
        let absolute = Self.absolute(path)
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw ImportError(path: path, message: "does not exist")
        }
        var files = [String]()
        if isDirectory.boolValue {
            guard let walker = FileManager.default.enumerator(atPath: absolute) else {
                throw ImportError(path: path, message: "cannot be listed")
            }
            while let relative = walker.nextObject() as? String {
                let full = absolute + "/" + relative
                var dir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue else { continue }
                let name = relative.split(separator: "/").last.map(String.init) ?? relative
                if name.hasPrefix(".") || name.hasSuffix("-wal") || name.hasSuffix("-shm") { continue }
                if format == .segb && relative.split(separator: "/").contains(where: { $0.lowercased() == "tombstone" }) { continue }
                files.append(full)
            }
            files.sort()
        } else {
            files = [absolute]
        }
        let root = options.root.map(Self.absolute) ?? (isDirectory.boolValue ? absolute : (absolute as NSString).deletingLastPathComponent)
        guard absolute == root || absolute.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw ImportError(path: path, message: "is not inside the extraction root \(options.root ?? root); give --root a directory that contains it", isUsage: true)
        }
        return (files, root)
    }

    /// Reads one file (no storing).
    public func read(file: String, root: String) -> ArtifactImport {
        let relative = file == root ? (file as NSString).lastPathComponent : String(file.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
        let context = ArtifactContext(sha256: "", path: relative, device: options.device)
        switch format {
        case .segb: return SEGBImporter.read(path: file, context: context, stream: options.stream)
        case .knowledgec: return KnowledgeCImporter.read(path: file, context: context)
        case .powerlog: return PowerLogImporter.read(path: file, context: context)
        }
    }

    /// Imports every file `path` denotes into `ledger`.
    ///
    /// - Returns: one report per file, in file order. A file that cannot be read, or whose
    ///   events cannot be stored (an id stored with other content), has `error` set and
    ///   added nothing; the others are stored.
    /// - Throws: `ImportError` for a bad path; `LedgerError` when the store fails (files
    ///   whose reports were delivered stay stored).
    public func run(path: String, into ledger: Ledger) throws -> [ImportFileReport] {
        let (files, root) = try files(at: path)
        return try run(files: files, root: root, into: ledger)
    }

    /// Imports `files` (as `files(at:)` lists them, with their root) into `ledger`.
    public func run(files: [String], root: String, into ledger: Ledger) throws -> [ImportFileReport] {
        // Readers decode files ahead of the appends, in parallel; `slots` bounds how many
        // decoded files wait in memory.
        let readers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        let slots = DispatchSemaphore(value: readers + 1)
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
                    let result = read(file: files[i], root: root)
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
        for i in files.indices {
            done[i].wait()
            var result = results.withLock { $0.removeValue(forKey: i)! }
            slots.signal()
            if result.report.error == nil && !result.events.isEmpty {
                switch Result(catching: { () throws(LedgerError) in try ledger.append(result.events) }) {
                case .success(let receipt):
                    result.report.imported = receipt.stored
                    result.report.duplicates = receipt.duplicates
                case .failure(let e):
                    guard e.kind == .idConflict else { throw e }
                    result.report.error = "\(e.message); nothing from this file was imported"
                }
            }
            options.onFile?(result.report)
            reports.append(result.report)
        }
        return reports
    }

    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (full as NSString).standardizingPath
    }
}

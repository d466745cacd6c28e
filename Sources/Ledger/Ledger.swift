package import LMDBKit
// The record format is the vocabulary of the ledger's API: whoever imports the ledger sees it.
@_exported public import RecordFormat
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The append-only event log of one store: an LMDB environment holding the records,
/// their hash chain, the interned strings and the indices.
///
/// ```swift
/// let ledger = try Ledger(path: "store")
/// let receipt = try ledger.append(events)          // one durable commit
/// try ledger.read { r in try r.scan { record in ... } }
/// ```
///
/// - Note: `Sendable`: the environment is shared safely by LMDB; the string cache sits
///   behind a `Mutex`; appends from many threads are serialised by the group committer.
public final class Ledger: Sendable {
    /// The store format this build writes and reads.
    public static let formatVersion: UInt32 = 1

    /// The LMDB environment (for the package's tests and tools; the ledger's API does
    /// not expose LMDB).
    package let environment: Environment
    /// The store directory.
    public let path: String
    let databases: StoreDatabases
    /// The map's page size: how much of a derived value stays on a leaf page
    /// (`DerivedChunks`).
    let pageSize: Int
    /// Whether the store was opened for reading only.
    public let isReadOnly: Bool
    let stringTable = StringTable()
    let committer = GroupCommitter()
    /// The preparers' view of the string table; held only briefly, so that a commit never
    /// waits for a batch being encoded.
    let preparation = Mutex(PreparationState())
    /// Held by one preparer at a time, for the whole encoding of its batch.
    let preparing = Mutex(())

    /// How to open a store.
    public struct Options: Sendable {
        /// Open for reading only (no lock on writers, nothing created).
        public var readOnly: Bool
        /// Write transactions write their pages into the mapped data file itself
        /// (`MDB_WRITEMAP`) instead of holding them in the process's memory until they
        /// commit: a commit of any size then takes no more of the process's own memory, and
        /// the kernel may write its pages back early. The commit is as atomic as ever (the
        /// store's root is written last). The data file is sized to the map (a sparse file),
        /// and a page the disk cannot take (full, failing) faults with SIGBUS instead of
        /// failing the commit: a process that sets this handles that signal.
        public var writesInPlace = false
        /// Environment options: map size, growth.
        package var environment: Environment.Options

        /// Creates options.
        public init(readOnly: Bool = false) {
            self.readOnly = readOnly
            self.environment = Environment.Options()
        }

        /// Creates options with LMDB environment options (the package's tests).
        package init(readOnly: Bool = false, environment: Environment.Options) {
            self.readOnly = readOnly
            self.environment = environment
        }
    }

    /// Opens the store at `path`, creating it (owner-only) unless `readOnly`.
    ///
    /// - Throws: `LedgerError` `.missing` when a read-only open finds no store,
    ///   `.damaged` when the data file is shorter than its map says (a truncated copy),
    ///   `.newerFormat` for a store of a newer format, `.storage` for LMDB failures.
    public init(path: String, options: Options = Options()) throws(LedgerError) {
        self.path = path
        self.isReadOnly = options.readOnly
        var isDirectory = false
        let exists = Ledger.fileExists(path, isDirectory: &isDirectory)
        if !exists {
            if options.readOnly {
                throw LedgerError(
                    .missing, "no store at \(path); create one with `stackledger ingest`, or pass --store DIR")
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw LedgerError(
                    .storage, "cannot create the store directory \(path): \(String(cString: strerror(errno)))")
            }
        } else if !isDirectory {
            throw LedgerError(.storage, "\(path) is not a store directory")
        }
        let dataFile = path + "/data.mdb"
        if options.readOnly && !Ledger.fileExists(dataFile, isDirectory: &isDirectory) {
            throw LedgerError(
                .missing, "no store at \(path) (no data.mdb); create one with `stackledger ingest`, or pass --store DIR"
            )
        }
        var envOptions = options.environment
        if options.readOnly {
            envOptions.flags.insert(.readOnly)
        } else if options.writesInPlace {
            envOptions.flags.insert(.writableMap)
        }
        let fileSize = Ledger.fileSize(dataFile)
        // A writer that stopped between creating the data file and its first write leaves
        // it empty; LMDB would try to write a new store's first pages into it.
        if options.readOnly && fileSize == 0 {
            throw LedgerError(
                .missing,
                "\(path) holds no StackLedger store (its data file is empty: the first write never finished); create one with `stackledger ingest`"
            )
        }
        if let size = fileSize, size > envOptions.initialMapSize {
            envOptions.initialMapSize = size
        }
        let env: Environment
        do {
            env = try Environment(path: path, options: envOptions)
        } catch {
            throw Ledger.describe(error, path: path)
        }
        // A data file shorter than the map's last page would fault (SIGBUS) when read. The
        // file is measured again after the map's extent is read: a writer may have
        // committed (and grown the file) since the first look, and the file never shrinks.
        let info = env.info()
        if let size = Ledger.fileSize(dataFile), size > 0, size < info.usedBytes {
            throw LedgerError(
                .damaged,
                "the store's data file \(dataFile) is truncated: \(size) bytes, but its map uses \(info.usedBytes); restore it from a copy (nothing was read)"
            )
        }
        do {
            _ = try env.clearStaleReaders()
        } catch {
            throw Ledger.describe(error, path: path)
        }
        self.environment = env
        self.pageSize = info.pageSize
        do {
            self.databases = try Ledger.openDatabases(env, readOnly: options.readOnly, path: path)
        } catch let e as LedgerError {
            throw e
        } catch {
            throw Ledger.describe(error, path: path)
        }
    }

    private static func openDatabases(_ env: Environment, readOnly: Bool, path: String) throws -> StoreDatabases {
        func open(_ txn: Transaction, _ create: Bool) throws -> StoreDatabases {
            let c: Database.Flags = create ? .create : []
            let dup: Database.Flags = [.duplicateSort, .duplicateFixed]
            return StoreDatabases(
                meta: try txn.openDatabase("meta", flags: c),
                log: try txn.openDatabase("log", flags: c),
                strings: try txn.openDatabase("strings", flags: c),
                batches: try txn.openDatabase("batches", flags: c),
                deviceTime: try txn.openDatabase("index.deviceTime", flags: c.union(dup)),
                keys: try txn.openDatabase("index.keys", flags: c.union(dup)),
                ids: try txn.openDatabase("ids", flags: c),
                derived: try openOptional(txn, "derived", create))
        }
        func openOptional(_ txn: Transaction, _ name: String, _ create: Bool) throws -> Database? {
            do {
                return try txn.openDatabase(name, flags: create ? .create : [])
            } catch LMDBError.notFound {
                return nil
            }
        }
        let dbs: StoreDatabases
        if readOnly {
            do {
                dbs = try env.read { try open($0, false) }
            } catch LMDBError.notFound {
                throw LedgerError(.missing, "\(path) holds no StackLedger store; create one with `stackledger ingest`")
            }
        } else {
            dbs = try env.write { txn in
                let d = try open(txn, true)
                if try txn.get(d.meta, key: Array("format".utf8)) == nil {
                    try txn.put(
                        d.meta, key: Array("format".utf8),
                        value: withUnsafeBytes(of: formatVersion.littleEndian) { Array($0) })
                }
                return d
            }
        }
        let format: UInt32? = try env.read { txn in
            guard let v = try txn.get(dbs.meta, key: Array("format".utf8)), v.count == 4 else { return nil }
            return UInt32(littleEndian: v.loadUnaligned(as: UInt32.self))
        }
        guard let format else {
            throw LedgerError(.damaged, "\(path) has no format version; it is not a StackLedger store or it is damaged")
        }
        if format > formatVersion {
            throw LedgerError(
                .newerFormat,
                "the store at \(path) was written by a newer StackLedger (store format \(format)); this stackledger reads format \(formatVersion) and older: upgrade stackledger to open it"
            )
        }
        return dbs
    }

    static func describe(_ error: any Error, path: String) -> LedgerError {
        if let e = error as? LedgerError { return e }
        if let e = error as? LMDBError {
            switch e.code {
            case EACCES, EROFS, EPERM:
                return LedgerError(
                    .storage,
                    "cannot open the store at \(path): \(e); check its permissions, or copy it somewhere writable")
            case ENOSPC:
                return LedgerError(
                    .storage, "the disk holding \(path) is full; free space and run again (nothing was lost)")
            case EIO, EFBIG:
                // LMDB reports a short write (a disk filling up mid-commit) as EIO.
                return LedgerError(
                    .storage,
                    "writing to the store at \(path) failed (\(e)); the disk may be full or failing. Nothing of the failed commit was stored; free space or fix the disk and run again"
                )
            case LMDBError.invalid.code, LMDBError.versionMismatch.code, LMDBError.corrupted.code:
                return LedgerError(
                    .damaged,
                    "the store at \(path) is not a readable LMDB environment (\(e)); run `stackledger verify` on a copy"
                )
            case LMDBError.mapFull.code:
                return LedgerError(
                    .storage,
                    "the store at \(path) reached its map size limit; nothing of the failed batch was stored. Allow growth or raise the limit"
                )
            default:
                return LedgerError(.storage, "store \(path): \(e)")
            }
        }
        return LedgerError(.storage, "store \(path): \(error)")
    }

    static func fileExists(_ path: String, isDirectory: inout Bool) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
        return true
    }

    static func fileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }

    /// The size of the data file in bytes.
    public var dataFileSize: Int { Ledger.fileSize(path + "/data.mdb") ?? 0 }

    /// Refreshes the string cache from `txn` when the store holds strings it lacks.
    ///
    /// - Parameter tolerant: keep going past a damaged definition with a placeholder
    ///   (for `verify`, which reports it) instead of throwing; the cache is not updated then.
    func strings(in txn: Transaction, tolerant: Bool = false) throws -> StringSnapshot {
        var snap = stringTable.snapshot()
        let cursor = try txn.cursor(databases.strings)
        guard let last = try cursor.last() else { return snap }
        let lastID = UInt32(bigEndian: last.key.loadUnaligned(as: UInt32.self))
        guard lastID > UInt32(snap.count) else { return snap }
        var next = UInt32(snap.count + 1)
        var damaged = false
        var key = StoreKeys.stringID(next)
        var entry = try withUnsafeBytes(of: &key) { try cursor.seek(atOrAfter: $0) }
        while let e = entry {
            let id = UInt32(bigEndian: e.key.loadUnaligned(as: UInt32.self))
            if id == next, let s = StringRecord.decode(e.value, id: id) {
                _ = snap.append(s)
            } else if tolerant {
                damaged = true
                while UInt32(snap.strings.count) < id {
                    _ = snap.append("\u{FFFD}missing string \(snap.strings.count)")
                }
                if UInt32(snap.strings.count) == id { _ = snap.append("\u{FFFD}damaged string \(id)") }
            } else {
                throw LedgerError(
                    .damaged, "string definition \(next) is missing or fails its checksum; run `stackledger verify`")
            }
            next = UInt32(snap.strings.count)
            entry = try cursor.next()
        }
        if !damaged { stringTable.publish(snap) }
        return snap
    }
}

/// A stored string definition: `u8 version, UTF-8 bytes, u32 CRC-32C(id LE ‖ bytes)`.
enum StringRecord {
    static func encode(_ s: String, id: UInt32) -> [UInt8] {
        var w = ByteWriter(capacity: s.utf8.count + 5)
        w.write(1)
        w.write(contentsOf: s.utf8)
        var crc = withUnsafeBytes(of: id.littleEndian) { CRC32C.update(0, $0) }
        crc = w.bytes.withUnsafeBytes { CRC32C.update(crc, $0) }
        w.writeFixed(crc)
        return w.bytes
    }

    static func decode(_ b: UnsafeRawBufferPointer, id: UInt32) -> String? {
        guard b.count >= 5, b[0] == 1 else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: b[0..<b.count - 4])
        var crc = withUnsafeBytes(of: id.littleEndian) { CRC32C.update(0, $0) }
        crc = CRC32C.update(crc, body)
        guard crc == UInt32(littleEndian: b.loadUnaligned(fromByteOffset: b.count - 4, as: UInt32.self)) else {
            return nil
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: body[1...]), as: UTF8.self)
    }
}

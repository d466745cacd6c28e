internal import CLMDB

extension Environment {
    /// Flags for `mdb_env_open`.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `MDB_NOSUBDIR`: the path names the data file itself, not a directory.
        public static let noSubdirectory = Flags(rawValue: UInt32(MDB_NOSUBDIR))
        /// `MDB_RDONLY`: open read-only; no write transactions.
        public static let readOnly = Flags(rawValue: UInt32(MDB_RDONLY))
        /// `MDB_NOSYNC`: do not flush on commit (not durable; for benchmarks only).
        public static let noSync = Flags(rawValue: UInt32(MDB_NOSYNC))
        /// `MDB_NOMETASYNC`: flush data but not the meta page on commit.
        public static let noMetaSync = Flags(rawValue: UInt32(MDB_NOMETASYNC))
        /// `MDB_NORDAHEAD`: no read-ahead on the map.
        public static let noReadAhead = Flags(rawValue: UInt32(MDB_NORDAHEAD))
        /// `MDB_WRITEMAP`: a write transaction writes its pages into the map itself.
        public static let writableMap = Flags(rawValue: UInt32(MDB_WRITEMAP))
    }

    /// How to open an environment.
    public struct Options: Sendable {
        /// The map size to start with, in bytes (`mdb_env_set_mapsize`).
        public var initialMapSize: Int
        /// The size growth stops at, in bytes.
        public var maximumMapSize: Int
        /// Whether a write that fills the map doubles it and retries.
        public var growsAutomatically: Bool
        /// `mdb_env_set_maxdbs`: how many named databases may be opened.
        public var maximumDatabases: Int
        /// `mdb_env_set_maxreaders`: concurrent read transactions across processes.
        public var maximumReaders: Int
        /// Flags for `mdb_env_open` (`MDB_NOTLS` is always added).
        public var flags: Flags
        /// The mode new files are created with (owner-only by default).
        public var fileMode: UInt32

        /// Creates options; the defaults suit a store that grows by itself.
        public init(
            initialMapSize: Int = 64 << 20,
            maximumMapSize: Int = 1 << 40,
            growsAutomatically: Bool = true,
            maximumDatabases: Int = 16,
            maximumReaders: Int = 126,
            flags: Flags = [],
            fileMode: UInt32 = 0o600
        ) {
            self.initialMapSize = initialMapSize
            self.maximumMapSize = maximumMapSize
            self.growsAutomatically = growsAutomatically
            self.maximumDatabases = maximumDatabases
            self.maximumReaders = maximumReaders
            self.flags = flags
            self.fileMode = fileMode
        }
    }

    /// What `mdb_env_info` and `mdb_env_stat` report about the map.
    public struct Info: Sendable {
        /// The current map size in bytes.
        public var mapSize: Int
        /// The number of the last page used (`me_last_pgno`).
        public var lastPageNumber: Int
        /// The page size in bytes.
        public var pageSize: Int
        /// The size of the reader table.
        public var maximumReaders: Int
        /// Reader slots in use.
        public var readersInUse: Int
        /// Bytes the data file must hold at least: `(lastPageNumber + 1) * pageSize`.
        public var usedBytes: Int { (lastPageNumber + 1) * pageSize }
    }
}

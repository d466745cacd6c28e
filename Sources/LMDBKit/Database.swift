internal import CLMDB

/// A named database inside an environment (an `MDB_dbi`).
///
/// Open each database once at start-up, in a write transaction, and keep the handle.
public struct Database: Sendable, Hashable {
    let dbi: MDB_dbi

    /// Flags for `mdb_dbi_open`.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `MDB_CREATE`: create the database if it does not exist.
        public static let create = Flags(rawValue: UInt32(MDB_CREATE))
        /// `MDB_DUPSORT`: a key may hold several sorted values.
        public static let duplicateSort = Flags(rawValue: UInt32(MDB_DUPSORT))
        /// `MDB_DUPFIXED`: with `.duplicateSort`, all values of a key have one size.
        public static let duplicateFixed = Flags(rawValue: UInt32(MDB_DUPFIXED))
        /// `MDB_INTEGERKEY`: keys are native unsigned integers.
        public static let integerKey = Flags(rawValue: UInt32(MDB_INTEGERKEY))
    }

    /// Statistics of one database (`mdb_stat`).
    public struct Statistics: Sendable {
        /// Items in the database (every duplicate counts).
        public var entries: Int
        /// B-tree depth.
        public var depth: Int
        /// Branch, leaf and overflow pages.
        public var branchPages: Int, leafPages: Int, overflowPages: Int
        /// All pages the database uses.
        public var pages: Int { branchPages + leafPages + overflowPages }
    }
}

/// Flags for `mdb_put` and `mdb_cursor_put`.
public struct PutFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MDB_NOOVERWRITE`: fail with `.keyExists` if the key is there.
    public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// `MDB_NODUPDATA`: with duplicates, fail if the pair exists.
    public static let noDuplicateData = PutFlags(rawValue: UInt32(MDB_NODUPDATA))
    /// `MDB_APPEND`: the key is greater than every key present (fast bulk load).
    public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
    /// `MDB_APPENDDUP`: the value is greater than every value of the key.
    public static let appendDuplicate = PutFlags(rawValue: UInt32(MDB_APPENDDUP))
}

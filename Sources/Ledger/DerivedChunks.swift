import LMDBKit

/// Long derived values stored as pieces packed on leaf pages.
///
/// LMDB puts a value that does not fit in half a page on pages of its own, whole pages,
/// so a checkpoint of 4,500 bytes took two pages (8,192 bytes); and leaf pages that grow
/// by inserts in the middle of the tree split in half. A value longer than `inlineLimit`
/// (or exactly `pointerLength` long) is stored instead as pieces under keys that only
/// ever grow, `0xFF`, an 8-byte big-endian number one past the greatest so far and a
/// 4-byte big-endian index from 1, appended (`MDB_APPEND`: a full page stays full), each
/// but the last `pieceLength(pageSize:)` long; its own key holds the number and the
/// value's length (8 and 4 bytes, big-endian).
/// No other derived key starts with `0xFF`, so scans by a key's prefix see the values'
/// own keys only.
enum DerivedChunks {
    /// The first byte of a piece's key.
    static let root: UInt8 = 0xFF
    /// Values up to this long (but `pointerLength`) are stored under their key as they are.
    static let inlineLimit = 1_024
    /// The length of what a value stored as pieces leaves under its key: the pieces'
    /// number and the value's length.
    static let pointerLength = 12
    /// The length of a piece's key.
    static let pieceKeyLength = 13

    /// How many whole pieces a page holds: a value's last, shorter piece leaves less of a
    /// page unused when the pieces are small, and each piece costs its node's 23 bytes.
    static let piecesPerPage = 8

    /// The length of a piece (but a value's last) for a page of `pageSize` bytes:
    /// `piecesPerPage` nodes (8-byte header, key, value, and a 2-byte index each) fill
    /// a page after its 16-byte header.
    static func pieceLength(pageSize: Int) -> Int {
        ((pageSize - 16) / piecesPerPage - 2 - 8 - pieceKeyLength) & ~1
    }

    /// The key of piece `index` of the value numbered `number`.
    static func pieceKey(_ number: UInt64, _ index: UInt32) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(pieceKeyLength)
        out.append(root)
        withUnsafeBytes(of: number.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: index.bigEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Stores `value` under `key`, replacing what was there (and its pieces).
    static func put(_ txn: Transaction, _ db: Database, key: [UInt8], value: [UInt8], pageSize: Int) throws {
        if let old = try key.withUnsafeBytes({ try txn.get(db, key: $0) }).map(Array.init) {
            try deletePieces(txn, db, storedValue: old)
        }
        guard value.count > inlineLimit || value.count == pointerLength, value.count <= Int(UInt32.max) else {
            _ = try txn.put(db, key: key, value: value)
            return
        }
        let c = try txn.cursor(db)
        var (number, flags) = (UInt64(1), PutFlags.append)
        if let last = try c.last(), last.key.first == root {
            if last.key.count == pieceKeyLength {
                number = UInt64(bigEndian: last.key.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) &+ 1
            } else {
                // A key of no layout this build writes sorts last: the pieces are put in place.
                flags = []
            }
        }
        let length = pieceLength(pageSize: pageSize)
        try value.withUnsafeBytes { all in
            var (start, index) = (0, UInt32(1))
            while start < all.count {
                let end = min(start + length, all.count)
                try pieceKey(number, index).withUnsafeBytes { k in
                    _ = try c.put(key: k, value: UnsafeRawBufferPointer(rebasing: all[start..<end]), flags: flags)
                }
                (start, index) = (end, index + 1)
            }
        }
        var pointer = withUnsafeBytes(of: number.bigEndian) { Array($0) }
        withUnsafeBytes(of: UInt32(value.count).bigEndian) { pointer.append(contentsOf: $0) }
        _ = try txn.put(db, key: key, value: pointer)
    }

    /// The value that `stored`, found under its key, stands for: itself, or the pieces it
    /// numbers put together (empty when one is missing or they do not make its length:
    /// a value's own check, such as a checkpoint's CRC-32C, refuses that).
    static func value(_ txn: Transaction, _ db: Database, stored: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard stored.count == pointerLength else { return Array(stored) }
        let number = number(of: stored)
        let length = Int(UInt32(bigEndian: stored.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        var out = [UInt8]()
        out.reserveCapacity(length)
        let c = try txn.cursor(db)
        var entry = try pieceKey(number, 1).withUnsafeBytes { try c.seek(exactly: $0) }
        var index: UInt32 = 1
        while let e = entry, e.key.count == pieceKeyLength,
            UInt64(bigEndian: e.key.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) == number
        {
            guard UInt32(bigEndian: e.key.loadUnaligned(fromByteOffset: 9, as: UInt32.self)) == index else {
                return []
            }
            guard out.count + e.value.count <= length else { return [] }
            out.append(contentsOf: e.value)
            index += 1
            entry = try c.next()
        }
        return out.count == length ? out : []
    }

    /// Deletes the pieces `storedValue` (found under a key) numbers, if it numbers any.
    static func deletePieces(_ txn: Transaction, _ db: Database, storedValue: [UInt8]) throws {
        guard storedValue.count == pointerLength else { return }
        try deletePieces(txn, db, numbers: [storedValue.withUnsafeBytes { number(of: $0) }])
    }

    /// Deletes the pieces of the values numbered `numbers`, with one cursor that moves
    /// forward through them in order (a rebuild drops every checkpoint's).
    static func deletePieces(_ txn: Transaction, _ db: Database, numbers: [UInt64]) throws {
        guard !numbers.isEmpty else { return }
        let c = try txn.cursor(db)
        for number in numbers.sorted() {
            var entry = try pieceKey(number, 1).withUnsafeBytes { try c.seek(atOrAfter: $0) }
            while let e = entry, e.key.count == pieceKeyLength, e.key.first == root,
                UInt64(bigEndian: e.key.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) == number
            {
                try c.deleteCurrent()
                // LMDB leaves the cursor so that the next move yields the entry after the deleted one.
                entry = try c.next()
            }
        }
    }

    /// The number a stored pointer (`pointerLength` bytes) names.
    static func number(of pointer: UnsafeRawBufferPointer) -> UInt64 {
        UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self))
    }
}

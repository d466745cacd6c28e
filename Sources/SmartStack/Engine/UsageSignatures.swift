import RecordFormat
import Synchronization

/// The `UsageSignature`s read from one checkpoint, each made once: every day's section
/// lists the signatures of its records (`UsageSignatureTable`), and the days of a state
/// repeat a few apps, intents and parameters. A signature is written as a section of its
/// own, so its bytes depend on its content only; a signature whose bytes were read before,
/// by this reader or by an earlier one of the process (`SharedUsageSignatures`), is found
/// by them, without reading its strings again.
struct UsageSignatures {
    /// Where each signature read so far has its bytes in the reader's state.
    private var ranges: [Range<Int>] = []
    /// The signatures read so far, in the order of `ranges`.
    private var signatures: [UsageSignature] = []
    /// `StringHash.of` each entry's bytes.
    private var hashes: [UInt64] = []
    /// Open addressing on the hashes (already well mixed, so no second hash is run): entry
    /// index + 1, 0 for an empty slot; at least twice as many slots as entries.
    private var slots = [Int32](repeating: 0, count: 64)

    /// Reads a signature that `UsageSignature.write` wrote.
    mutating func read(_ r: inout StateReader) throws -> UsageSignature {
        let range = try r.skipSection()
        // Hashed and compared in the state's storage, with no copy of the array per step.
        let found = r.bytes.withUnsafeBytes { raw -> (entry: Int?, hash: UInt64, slot: Int) in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
            let hash = StringHash.of(bytes)
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 {
                let e = Int(slots[slot]) - 1
                if hashes[e] == hash, ObjectFields.equalBytes(UnsafeRawBufferPointer(rebasing: raw[ranges[e]]), bytes) {
                    return (e, hash, slot)
                }
                slot = (slot + 1) & mask
            }
            return (nil, hash, slot)
        }
        if let entry = found.entry { return signatures[entry] }
        let signature =
            try SharedUsageSignatures.process.signature(hash: found.hash, bytes: r.bytes[range]) {
                try r.section(at: range) { r in
                    UsageSignature(
                        app: try r.string(), intent: try r.optional { try $0.string() },
                        parameters: try r.map { try $0.string() })
                }
            }
        ranges.append(range)
        signatures.append(signature)
        hashes.append(found.hash)
        slots[found.slot] = Int32(signatures.count)
        if signatures.count * 2 > slots.count { reindex() }
        return signature
    }

    /// Doubles the slots and places every entry again.
    private mutating func reindex() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (e, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(e + 1)
        }
    }

    static func equal(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.withUnsafeBytes { a in b.withUnsafeBytes { b in ObjectFields.equalBytes(a, b) } }
    }
}

/// The usage signatures the process has read from checkpoints, by the bytes they were
/// read from, so that a restore makes none that an earlier one made. At most `limit` are
/// kept; past it, the memory starts over.
final class SharedUsageSignatures: Sendable {
    static let process = SharedUsageSignatures()

    private let kept = Mutex<[UInt64: (bytes: [UInt8], signature: UsageSignature)]>([:])
    static let limit = 4096

    /// The signature read from `bytes` (whose hash is `hash`): the one kept, or `make()`'s.
    func signature(
        hash: UInt64, bytes: ArraySlice<UInt8>, make: () throws -> UsageSignature
    ) throws -> UsageSignature {
        if let found = kept.withLock({ kept -> UsageSignature? in
            guard let entry = kept[hash], UsageSignatures.equal(entry.bytes[...], bytes) else { return nil }
            return entry.signature
        }) {
            return found
        }
        let made = try make()
        kept.withLock { kept in
            if kept.count >= SharedUsageSignatures.limit { kept.removeAll() }
            kept[hash] = (Array(bytes), made)
        }
        return made
    }
}

extension UsageSignature {
    /// Writes the app, intent and parameters as a section with strings of its own, so that
    /// the same content gives the same bytes wherever it is written.
    func write(_ w: inout StateWriter) {
        w.section(
            StateWriter.section(capacity: 64) { w in
                w.string(app)
                w.optionalString(intent)
                w.map(parameters) { $0.string($1) }
            })
    }
}

/// The distinct signatures of one day's usage records, in order of first use, for the
/// day's section of a checkpoint. Signatures are told apart by content, so that the same
/// records give the same table whether their signatures are shared or not.
struct UsageSignatureTable {
    private(set) var signatures: [UsageSignature] = []
    private var byObject: [ObjectIdentifier: Int] = [:]
    private var byContent: [UsageSignature: Int] = [:]

    /// A table for up to `records` records, made without growing.
    init(records: Int) {
        byObject.reserveCapacity(records)
        byContent.reserveCapacity(min(records, 32))
        signatures.reserveCapacity(min(records, 32))
    }

    /// Adds `signature` unless the table holds it (or one of the same content).
    mutating func note(_ signature: UsageSignature) {
        let object = ObjectIdentifier(signature)
        guard byObject[object] == nil else { return }
        if let known = byContent[signature] {
            byObject[object] = known
            return
        }
        byObject[object] = signatures.count
        byContent[signature] = signatures.count
        signatures.append(signature)
    }

    /// The place in the table of a signature `note(_:)` was given.
    func entry(of signature: UsageSignature) -> Int { byObject[ObjectIdentifier(signature)]! }
}

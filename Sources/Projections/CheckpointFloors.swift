/// The floors of one device's checkpoints under one engine tag, kept beside them at
/// `cf` device 0x00 engine(8).
///
/// When a refold after late events meets a checkpoint made before them and finds the same
/// state there, that checkpoint and the ones after it stay. They now stand for the log
/// with the late events, but not for a view of the log that holds only some of them
/// (`--as-recorded-at` a moment in between). A floor `(time, ceiling)` says so: a checkpoint
/// dated at or after `time` serves only views of at least `ceiling` records.
struct CheckpointFloors: Equatable {
    static let root: [UInt8] = Array("cf".utf8)

    /// Ascending by time; each entry's ceiling is greater than those before it.
    private(set) var entries: [(time: Int64, ceiling: UInt64)] = []

    static func key(_ device: String, _ tag: [UInt8]) -> [UInt8] { root + Array(device.utf8) + [0] + tag }

    /// The device and engine tag a floors key names; nil for a key of another shape.
    static func owner(ofKey key: some Collection<UInt8>) -> (device: String, tag: [UInt8])? {
        let body = key.dropFirst(root.count)
        guard key.starts(with: root), let zero = body.firstIndex(of: 0) else { return nil }
        return (String(decoding: body[..<zero], as: UTF8.self), Array(body[body.index(after: zero)...]))
    }

    init() {}

    /// The floors stored for a device's checkpoints: none when nothing is stored; when
    /// what is stored is damaged, a floor no view reaches, so that no checkpoint of the
    /// device serves until they are rebuilt.
    init(stored value: [UInt8]?) {
        guard let value else { return }
        self = CheckpointFloors(value) ?? CheckpointFloors(entries: [(.min, .max)])
    }

    private init(entries: [(time: Int64, ceiling: UInt64)]) { self.entries = entries }

    /// Parses a stored value; nil when it is malformed.
    init?(_ value: [UInt8]) {
        guard value.count % 16 == 0 else { return nil }
        entries = stride(from: 0, to: value.count, by: 16).map { i in
            value.withUnsafeBytes { raw in
                (
                    Int64(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))),
                    UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                )
            }
        }
    }

    var encoded: [UInt8] {
        var out = [UInt8]()
        for e in entries {
            withUnsafeBytes(of: UInt64(bitPattern: e.time).bigEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: e.ceiling.bigEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The fewest records a view must hold to use a checkpoint dated `time`.
    func minimumCeiling(at time: Int64) -> UInt64 {
        entries.reduce(0) { $1.time <= time ? max($0, $1.ceiling) : $0 }
    }

    /// Adds a floor; the ones it makes redundant (dated at or after it, with no higher
    /// ceiling) are dropped.
    mutating func add(time: Int64, ceiling: UInt64) {
        entries.removeAll { $0.time >= time && $0.ceiling <= ceiling }
        entries.append((time, ceiling))
        entries.sort { $0.time < $1.time }
    }

    static func == (a: CheckpointFloors, b: CheckpointFloors) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.time == $1.time && $0.ceiling == $1.ceiling }
    }
}

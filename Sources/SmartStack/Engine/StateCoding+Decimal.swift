/// A state's relevance scores, durations and runs of times in as few bytes as they need.
///
/// Apps send scores and durations with a few decimal places (`0.7`, `1800`, `98.52981`);
/// eight bytes of IEEE 754 each made them most of a checkpoint's timeline section. A
/// value is written as a tag byte and, for a tag of 0 to 7, a zigzag varint `m` such that
/// `Double(m) / 10^tag` has exactly the value's bits (the writer checks, so the reader's
/// same division gives the same value, bit for bit); any other value (NaN, infinities,
/// -0.0, more digits) takes tag 8 and its eight bytes; an absent value takes tag 9.
enum StateDecimal {
    /// The powers of ten a tag names, each exact in a `Double`.
    static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]
    /// The tag of a value written as its eight bytes.
    static let rawTag: UInt8 = 8
    /// The tag of an absent value.
    static let absentTag: UInt8 = 9
    /// Mantissas stay below 2^53, where every integer is a `Double`.
    static let mantissaLimit = 9_007_199_254_740_992.0
    /// Microseconds in a second: a time apart from the one before by whole seconds (an
    /// app's timeline entries, the instants they schedule) is written in seconds.
    static let second: Int64 = 1_000_000
    /// Deltas this far from zero are written as they are, after an escape.
    static let deltaLimit: Int64 = 1 << 60
}

extension StateWriter {
    /// Writes `value` as `StateDecimal` says; nil as absent.
    mutating func decimal(_ value: Double?) {
        guard let value else { return byte(StateDecimal.absentTag) }
        for (tag, power) in StateDecimal.powersOfTen.enumerated() {
            let scaled = (value * power).rounded()
            guard abs(scaled) < StateDecimal.mantissaLimit else { break }
            let mantissa = Int64(scaled)
            if (Double(mantissa) / power).bitPattern == value.bitPattern {
                byte(UInt8(tag))
                int(mantissa)
                return
            }
        }
        byte(StateDecimal.rawTag)
        double(value)
    }

    /// Writes the distance `delta` between two times: in whole seconds when it is one
    /// (`zigzag(seconds) << 2 | 1`), else in microseconds (`zigzag(delta) << 2`); a distance
    /// of 2^60 or more (a sentinel such as `Int64.min` on one side) as the escape 2 and
    /// the distance as it is.
    mutating func timeDelta(_ delta: Int64) {
        func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
        if delta > -StateDecimal.deltaLimit && delta < StateDecimal.deltaLimit {
            if delta % StateDecimal.second == 0 {
                varint(zigzag(delta / StateDecimal.second) << 2 | 1)
            } else {
                varint(zigzag(delta) << 2)
            }
        } else {
            varint(2)
            int(delta)
        }
    }

    /// Writes ascending or nearly ascending times, each as its `timeDelta(_:)` from the
    /// one before (the first from 0).
    mutating func times(_ times: some Sequence<Int64>, count: Int) {
        varint(UInt64(count))
        var previous: Int64 = 0
        for t in times {
            timeDelta(t &- previous)
            previous = t
        }
    }

    /// Writes timeline entries as deltas from the one before (the first's date from
    /// `date`, its sequence number from 0): most entries of a list share their timeline's
    /// sequence number and offset and lie minutes apart.
    mutating func entries(_ entries: [StoredEntry], after date: Int64) {
        varint(UInt64(entries.count))
        var (date, minutes, seq) = (date, Int64(0), UInt64(0))
        for e in entries {
            timeDelta(e.date &- date)
            int(Int64(e.offset) &- minutes)
            decimal(e.score)
            decimal(e.duration)
            int(Int64(bitPattern: e.seq &- seq))
            (date, minutes, seq) = (e.date, Int64(e.offset), e.seq)
        }
    }
}

extension StateReader {
    /// A value that `StateWriter.decimal(_:)` wrote.
    mutating func decimal() throws -> Double? {
        let tag = try byte()
        switch tag {
        case 0..<StateDecimal.rawTag: return Double(try int()) / StateDecimal.powersOfTen[Int(tag)]
        case StateDecimal.rawTag: return try double()
        case StateDecimal.absentTag: return nil
        default: throw Malformed(offset: offset - 1)
        }
    }

    /// A distance that `StateWriter.timeDelta(_:)` wrote.
    mutating func timeDelta() throws -> Int64 {
        let v = try varint()
        func unzigzag(_ u: UInt64) -> Int64 { Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }
        switch v & 3 {
        case 1: return unzigzag(v >> 2) &* StateDecimal.second
        case 0: return unzigzag(v >> 2)
        case 2 where v == 2: return try int()
        default: throw Malformed(offset: offset - 1)
        }
    }

    /// Times that `StateWriter.times(_:count:)` wrote.
    mutating func times() throws -> [Int64] {
        let n = try length(atMost: bytes.count - offset)
        var out = [Int64]()
        out.reserveCapacity(n)
        var previous: Int64 = 0
        for _ in 0..<n {
            previous = previous &+ (try timeDelta())
            out.append(previous)
        }
        return out
    }

    /// A value that `StateWriter.decimal(_:)` wrote, which must be present.
    mutating func presentDecimal() throws -> Double {
        guard let value = try decimal() else { throw Malformed(offset: offset - 1) }
        return value
    }

    /// Entries that `StateWriter.entries(_:after:)` wrote after `date`.
    mutating func entries(after date: Int64) throws -> [StoredEntry] {
        let n = try length(atMost: bytes.count - offset)
        var out = [StoredEntry]()
        out.reserveCapacity(n)
        var (date, minutes, seq) = (date, Int64(0), UInt64(0))
        for _ in 0..<n {
            date = date &+ (try timeDelta())
            minutes = minutes &+ (try int())
            let score = try decimal()
            let duration = try presentDecimal()
            seq = seq &+ UInt64(bitPattern: try int())
            out.append(
                StoredEntry(
                    date: date, offset: Int16(truncatingIfNeeded: minutes), score: score, duration: duration, seq: seq))
        }
        return out
    }
}

/// Strings whose UTF-8 bytes live for the rest of the process, laid out as the compiler
/// lays out a string literal, so that copying one costs no reference counting.
///
/// A store's interned strings (app ids, kinds, instances, intent names) are read once
/// per process and then copied into every event and engine state that names them; as
/// ordinary strings, each copy and each drop is an atomic reference count update, a
/// large share of a fold's time. A permanent string is never freed: it is made only
/// for the store's string table, which the process keeps anyway.
///
/// The layout is checked once against a literal of this build's standard library;
/// where it differs, `make` returns its argument unchanged, so answers never depend on
/// it, only speed does.
public enum PermanentString {
    /// The flag bits of a literal's count word: ASCII, NFC and tail-allocated.
    private static let asciiFlags: UInt64 = 1 << 63 | 1 << 62 | 1 << 60
    private static let nonASCIIFlags: UInt64 = 1 << 60
    /// A literal's object word: the immortal discriminator over its address less the
    /// bias of a native storage header.
    private static let immortal: UInt64 = 1 << 63
    private static let bias: UInt64 = 32

    /// Whether this standard library lays out literals as `make` does.
    public static let isSupported: Bool = {
        var literal = "a literal of more than fifteen bytes"
        let words = unsafeBitCast(literal, to: (UInt64, UInt64).self)
        let count = UInt64(literal.utf8.count)
        let address = literal.withUTF8 { UInt64(UInt(bitPattern: $0.baseAddress)) }
        guard words.0 == count | asciiFlags, words.1 & 0xF000_0000_0000_0000 == immortal,
              (words.1 & 0x0FFF_FFFF_FFFF_FFFF) &+ bias == address else { return false }
        // The layout `make` writes must read back as the same text.
        return make(literal, checked: false) == literal && make("é" + literal, checked: false) == "é" + literal
    }()

    /// A permanent copy of `s`; `s` itself when it is small (stored inline, counting no
    /// references already) or when the layout is not supported.
    public static func make(_ s: String) -> String {
        make(s, checked: true)
    }

    /// Whether `s` needs no reference counting: small, or permanent (or a literal).
    public static func isFree(_ s: String) -> Bool {
        let words = unsafeBitCast(s, to: (UInt64, UInt64).self)
        return words.1 & (1 << 63 | 1 << 61) != 0
    }

    private static func make(_ s: String, checked: Bool) -> String {
        if checked && !isSupported { return s }
        if isFree(s) { return s }
        var s = s
        return s.withUTF8 { utf8 -> String in
            let n = utf8.count
            guard n > 15, let source = utf8.baseAddress else { return String(decoding: utf8, as: UTF8.self) }
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: n + 1)
            bytes.initialize(from: source, count: n)
            bytes[n] = 0
            let ascii = utf8.allSatisfy { $0 < 0x80 }
            let countAndFlags = UInt64(n) | (ascii ? asciiFlags : nonASCIIFlags)
            let object = immortal | (UInt64(UInt(bitPattern: bytes)) &- bias)
            return unsafeBitCast((countAndFlags, object), to: String.self)
        }
    }
}

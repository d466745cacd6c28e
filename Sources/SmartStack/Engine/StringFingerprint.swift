/// A cheap 64-bit hash of a string's UTF-8 bytes (FNV-1a), for keys that are hashed often
/// and are short: names of intents, kinds and instances. 0 for nil.
enum StringFingerprint {
    static func of(_ s: String?) -> UInt64 {
        guard var s else { return 0 }
        return s.withUTF8 { utf8 in
            var h: UInt64 = 14_695_981_039_346_656_037
            for b in utf8 { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
            return h
        }
    }
}

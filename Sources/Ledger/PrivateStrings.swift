/// One thread's own copies of a store's interned strings, kept across its reads, so that
/// threads decoding at once do not share (and contend for) the same reference counts, and
/// each read copies only the strings defined since the thread's last read.
///
/// Use one per thread: it is not safe to share.
public final class PrivateStrings {
    var strings: [String] = [""]

    /// No copies yet.
    public init() {}
}

import CMimalloc

/// The allocator of a process that links this module: mimalloc (the system's
/// `libmimalloc`), which takes the place of the C library's `malloc` for every allocation
/// of the process, the Swift runtime's included. The engine allocates and frees small
/// values at a high rate on several threads, where it allocates faster than glibc's.
public enum ProcessAllocator {
    /// The allocator's name and version, as "mimalloc 2.0.9".
    public static var description: String {
        let v = Int(mi_version())
        return "mimalloc \(v / 100).\(v / 10 % 10).\(v % 10)"
    }
}

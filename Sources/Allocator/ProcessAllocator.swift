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

    /// Makes the allocator give the memory it frees back to the system at once (mimalloc's
    /// `decommit_delay` of 0, instead of its 25 ms), so that a long streaming job's
    /// resident memory follows what it holds rather than what it once held. Pages that the
    /// delay would have reused are asked for again, at a small cost in system calls.
    public static func returnFreedMemoryAtOnce() {
        keepFreedMemory(milliseconds: 0)
    }

    /// Makes the allocator keep the memory it frees for `milliseconds` before giving it
    /// back to the system (mimalloc's `decommit_delay`, 25 ms by default), so that a
    /// server answering one question after another reuses the same pages instead of
    /// returning them and faulting them in again for the next question. Memory that stays
    /// free for longer is still given back.
    public static func keepFreedMemory(milliseconds: Int) {
        mi_option_set(mi_option_decommit_delay, milliseconds)
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// `read(2)` and `write(2)` with the retries every caller needs: a call a signal
/// interrupts (`EINTR`) is made again, and a write goes on until every byte is written.
package enum SystemIO {
    /// Reads up to `count` bytes into `buffer`: the count read (0 at the end of the
    /// input), or -1 with `errno` set.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// Writes all of `bytes`: nil once they are written, else the `errno` of the write
    /// that failed (0 when a write wrote nothing).
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? errno : 0 }
            done += n
        }
        return nil
    }
}

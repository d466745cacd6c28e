import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A directory of files written whole or not at all: the files go to a temporary directory
/// beside it, which is renamed over the path at `commit()` (the directory it replaces, one
/// holding only files `replaceable` allows, removed after); one never committed is removed.
final class OutputDirectory {
    let path: String
    let temporaryPath: String
    private var committed = false

    /// Creates the temporary directory beside `path`; exit 64 when `path` is something
    /// other than a directory that is new, empty or holds only files `replaceable` allows.
    init(path: String, replaceable: (String) -> Bool) throws {
        self.path = path
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw fail("--out \(path) exists and is not a directory; name a directory", code: ExitCodes.usage)
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if let other = entries.first(where: { !replaceable($0) }) {
                throw fail(
                    "--out \(path) holds \(other), which an export does not write; name a new or empty directory, or an earlier export's",
                    code: ExitCodes.usage)
            }
        }
        let (directory, name) = OutputFile.split(path)
        temporaryPath = directory + "/.\(name).partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporaryPath)
        guard mkdir(temporaryPath, 0o755) == 0 else {
            throw fail(
                "\(path): cannot create a directory beside it (\(String(cString: strerror(errno)))); check the directory exists and is writable",
                code: ExitCodes.ioError)
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(atPath: temporaryPath) }
    }

    /// Renames the temporary directory over `path`, removing the directory it replaces.
    func commit() throws {
        let (directory, name) = OutputFile.split(path)
        let replaced = directory + "/.\(name).replaced-\(getpid())"
        var st = stat()
        let existed = lstat(path, &st) == 0
        if existed {
            guard rename(path, replaced) == 0 else {
                throw fail("\(path): cannot move aside (\(String(cString: strerror(errno))))", code: ExitCodes.ioError)
            }
        }
        guard rename(temporaryPath, path) == 0 else {
            let cause = String(cString: strerror(errno))
            if existed { rename(replaced, path) }
            throw fail("\(path): cannot rename into place (\(cause))", code: ExitCodes.ioError)
        }
        committed = true
        if existed { try? FileManager.default.removeItem(atPath: replaced) }
    }
}

internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// Files only their owner may read (mode 0600, in folders of mode 0700 when they are created):
/// sessions hold passwords, tokens and cookies.
enum PrivateFile {
    /// Replaces the file at `path` with `data` through a temporary file renamed into place.
    static func write(_ data: Data, to path: String) throws(CommandFailure) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty { try makeFolders(folder) }
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot write", temporary) }
        do {
            try StandardStreams.write(data, to: descriptor)
        } catch {
            close(descriptor)
            _ = unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace", path)
            _ = unlink(temporary)
            throw error
        }
    }

    /// `mkdir -p` with mode 0700 for the folders it creates.
    static func makeFolders(_ folder: String) throws(CommandFailure) {
        var prefix = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw failure("cannot create", prefix) }
        }
    }

    private static func failure(_ what: String, _ path: String) -> CommandFailure {
        CommandFailure("\(what) \(path): \(String(cString: strerror(errno)))")
    }
}

internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The few POSIX file operations the store needs, with `EINTR` retried and errors as text.
enum POSIXFile {
    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The whole content of an open regular file, or `nil` if it cannot be read completely.
    static func readAll(_ descriptor: Int32, size: Int) -> Data? {
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return size == 0 }
            var done = 0
            while done < size {
                let count = read(descriptor, base + done, size - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? data : nil
    }

    /// Writes every byte of `bytes`; `false` with `errno` set when the system refused.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, base + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// The wall-clock time at full resolution: the store sets entry times itself, because the
    /// kernel's own file times advance only once per scheduler tick and would tie close accesses.
    static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    /// Sets the modification time (the store's last-access time) and leaves the access time alone.
    static func setModificationTime(_ descriptor: Int32, _ time: timespec) {
        // UTIME_OMIT: the macro does not import into Swift.
        let omit = timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)
        let times = [omit, time]
        _ = times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
    }

    /// The names in a directory, without `.` and `..`; empty if it cannot be listed.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `path` and its missing parents with mode 0700.
    static func makeDirectories(_ path: String) -> Int32? {
        var info = stat()
        if stat(path, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR
        }
        let parent = parentPath(path)
        if parent != path, !parent.isEmpty, let failure = makeDirectories(parent) { return failure }
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return nil }
        return errno
    }

    private static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

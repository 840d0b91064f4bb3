internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A temporary file that holds the parts of a body that cannot stay in memory or cannot be replayed.
///
/// The file is made with `mkstemp` in `$TMPDIR` (or `/tmp`) and kept open; readers `pread` from the
/// descriptor, which needs no shared offset. Every body source and reader that uses the file holds
/// this object, so the file is closed and deleted when the last of them is released.
final class MultipartSpillFile: Sendable {
    let path: String
    let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    static func create() throws(SerializationError) -> MultipartSpillFile {
        let environment = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        let directory = environment.isEmpty ? "/tmp" : environment
        var template = Array((directory + "/courier-multipart-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw MultipartErrors.streamFailed(
                "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))"
            )
        }
        // Another thread may fork and exec before this line; the window is harmless, a child would
        // only hold an extra descriptor to a private temporary file.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return MultipartSpillFile(path: path, descriptor: descriptor)
    }

    /// Appends the bytes of `data` at the end of the file.
    func write(_ data: Data) throws(SerializationError) {
        var failure: SerializationError?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            do throws(SerializationError) {
                try write(bytes)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Appends bytes at the end of the file.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SerializationError) {
        var remaining = bytes
        while let base = remaining.baseAddress, !remaining.isEmpty {
            let written = systemWrite(descriptor, base, remaining.count)
            if written < 0 {
                if errno == EINTR { continue }
                throw MultipartErrors.streamFailed(
                    "cannot write the temporary file \(path): \(String(cString: strerror(errno)))"
                )
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }
}

/// POSIX `write`, named apart from ``MultipartSpillFile/write(_:)``.
func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, base, count)
}

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Reads a range of a file with `pread`, opening it on first use and closing it on release.
///
/// `HTTPBody` checked the size when the body was made; if the file has shrunk since, the reader
/// throws instead of sending a body shorter than its announced length.
final class FileBodyReader: HTTPBodyReader {
    private let path: String
    private let offset: Int64
    private let length: Int64
    private var descriptor: Int32 = -1
    private var sent: Int64 = 0

    init(path: String, offset: Int64, length: Int64) throws(HTTPValueError) {
        self.path = path
        self.offset = offset
        self.length = length
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The size of a regular file, or a typed error that says why it cannot be read.
    static func regularFileSize(_ path: String) throws(HTTPValueError) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw HTTPValueError(code: .unreadableFile, value: path, reason: errnoDescription())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw HTTPValueError(code: .unreadableFile, value: path, reason: "not a regular file")
        }
        guard access(path, R_OK) == 0 else {
            throw HTTPValueError(code: .unreadableFile, value: path, reason: errnoDescription())
        }
        return Int64(info.st_size)
    }

    static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
        guard sent < length else { return .end }
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw HTTPValueError(code: .unreadableFile, value: path, reason: Self.errnoDescription())
            }
        }
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        let wanted = Int(min(Int64(buffer.count), length - sent))
        var count: Int
        repeat {
            count = pread(descriptor, base, wanted, off_t(offset + sent))
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw HTTPValueError(code: .unreadableFile, value: path, reason: Self.errnoDescription())
        }
        guard count > 0 else {
            throw HTTPValueError(
                code: .unreadableFile,
                value: path,
                reason: "the file ended after \(sent) of \(length) bytes; it changed after the body was made"
            )
        }
        sent += Int64(count)
        return .bytes(count)
    }

    func rewind() throws {
        sent = 0
    }
}

internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The file a `.file` destination writes to, and the resume rules around it (loop thread only).
///
/// Resuming sends `Range: bytes=<offset>-` with `If-Range: <validator>` (RFC 9110 §13.1.5, §14.2):
/// - `206` whose `Content-Range` starts at the offset: the body is appended after the partial data.
/// - `200`: the validator no longer matches (or the server ignores ranges); the file is truncated
///   and the whole new body written: a clean restart, never two versions spliced together.
/// - `416`, or a `206` starting elsewhere: `TransportError.Category.resumeFailed`; the partial file
///   is left as it was.
/// - any other status: the error body is discarded and the partial file kept for a later attempt;
///   the response is reported as usual so the caller sees the status.
/// Without a resume the file is truncated when the response arrives, so a transfer that fails before
/// any response leaves an existing file's contents untouched (a missing file is created empty). A transfer that fails midway leaves what it
/// wrote, so a later attempt can resume from it.
final class DownloadFile {
    /// How the response body is handled once its head is known.
    enum Disposition {
        case write
        case discard
    }

    let path: String
    /// The range asked for, when resuming.
    let requestedRange: (offset: Int64, validator: String)?
    private var descriptor: Int32
    /// Bytes in the file that belong to the current download.
    private(set) var length: Int64
    /// The size the file will have when complete, when the response said.
    private(set) var expectedLength: Int64?
    private var disposition: Disposition = .discard

    private init(path: String, descriptor: Int32, requestedRange: (offset: Int64, validator: String)?) {
        self.path = path
        self.descriptor = descriptor
        self.requestedRange = requestedRange
        length = requestedRange?.offset ?? 0
    }

    deinit { close() }

    static func open(path: String, resume: ResumeValidator?, url: URL) throws(TransportError) -> DownloadFile {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw failure("cannot open \(path) for writing: \(String(cString: strerror(errno)))", url: url)
        }
        var range: (offset: Int64, validator: String)?
        if let resume, resume.offset > 0, let validator = resume.ifRangeValue {
            var info = stat()
            if fstat(descriptor, &info) == 0, Int64(info.st_size) >= resume.offset {
                // Bytes past the validated offset were never confirmed; drop them before appending.
                if Int64(info.st_size) > resume.offset { _ = ftruncate(descriptor, off_t(resume.offset)) }
                range = (resume.offset, validator)
            }
        }
        return DownloadFile(path: path, descriptor: descriptor, requestedRange: range)
    }

    /// Decides what to do with the body of a final response.
    func accept(status: Int, headers: HTTPHeaders, url: URL) throws(TransportError) -> Disposition {
        let declaredLength = Self.identityLength(headers)
        if let requestedRange {
            switch status {
            case 206:
                guard let contentRange = headers["Content-Range"], let parsed = Self.parseContentRange(contentRange),
                    parsed.first == requestedRange.offset
                else {
                    throw TransportError(
                        category: .resumeFailed,
                        message: "the server resumed at the wrong place: Content-Range "
                            + "\(headers["Content-Range"] ?? "missing"), expected bytes \(requestedRange.offset)-",
                        url: url
                    )
                }
                expectedLength = parsed.total
                disposition = .write
            case 200:
                try restart(url: url)
                expectedLength = declaredLength
                disposition = .write
            case 416:
                throw TransportError(
                    category: .resumeFailed,
                    message: "the server cannot serve bytes \(requestedRange.offset)- (416); the partial file was kept",
                    url: url
                )
            default:
                disposition = .discard
            }
        } else {
            try restart(url: url)
            expectedLength = declaredLength
            disposition = .write
        }
        return disposition
    }

    private func restart(url: URL) throws(TransportError) {
        // An empty file (every new download) is left alone: on ext4 a truncate to zero arms
        // `auto_da_alloc`, which makes the `close()` flush the whole file (tens of milliseconds on
        // the loop thread per 100 MiB; see the kernel's Documentation/admin-guide/ext4.rst).
        var info = stat()
        let isEmpty = fstat(descriptor, &info) == 0 && info.st_size == 0
        if !isEmpty {
            guard ftruncate(descriptor, 0) == 0 else {
                throw Self.failure("cannot truncate \(path): \(String(cString: strerror(errno)))", url: url)
            }
        }
        length = 0
    }

    /// Appends body bytes at the end of the current download.
    func write(_ bytes: UnsafeRawBufferPointer, url: URL) throws(TransportError) {
        guard disposition == .write, var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = pwrite(descriptor, base, remaining, off_t(length))
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot write \(path): \(String(cString: strerror(errno)))", url: url)
            }
            remaining -= written
            length += Int64(written)
            base += written
        }
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Whether body bytes go to the file.
    var writesBody: Bool { disposition == .write }

    /// `Content-Length` when it describes the bytes written (no content coding).
    static func identityLength(_ headers: HTTPHeaders) -> Int64? {
        if let coding = headers["Content-Encoding"], coding.lowercased() != "identity" { return nil }
        return HTTPResponse(status: .ok, headers: headers).expectedContentLength
    }

    /// Parses `bytes <first>-<last>/<total>` (total may be `*`).
    static func parseContentRange(_ value: String) -> (first: Int64, last: Int64, total: Int64?)? {
        let trimmed = String(value.drop(while: { $0 == " " || $0 == "\t" }))
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
            return nil
        }
        let total = halves[1] == "*" ? nil : Int64(halves[1])
        if halves[1] != "*" && total == nil { return nil }
        return (first, last, total)
    }

    private static func failure(_ message: String, url: URL) -> TransportError {
        TransportError(category: .fileFailed, message: message, url: url)
    }
}

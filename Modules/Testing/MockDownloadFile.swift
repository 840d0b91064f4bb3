internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The file of a scripted `.file` destination, with the resume rules the libcurl transport keeps
/// (RFC 9110 §14.2): `206` from the requested offset appends, `200` starts the file over, `416` or a
/// `206` from elsewhere fails with `resumeFailed`, and any other status leaves the file alone.
/// Without a resume, the body of any status is written, as the libcurl transport does.
final class MockDownloadFile {
    private let path: String
    private let resume: (offset: Int64, validator: String)?
    private var descriptor: Int32 = -1
    /// Bytes of the current download in the file.
    private(set) var length: Int64 = 0

    init(path: String, resume: ResumeValidator?) {
        self.path = path
        if let resume, resume.offset > 0, let validator = resume.ifRangeValue {
            self.resume = (resume.offset, validator)
        } else {
            self.resume = nil
        }
    }

    deinit { close() }

    /// The `Range` and `If-Range` fields a resuming transfer sends.
    var requestFields: [(name: String, value: String)] {
        guard let resume else { return [] }
        return [("Range", "bytes=\(resume.offset)-"), ("If-Range", resume.validator)]
    }

    /// Opens the file for the body of `response`; `false` when the body is to be discarded.
    func accept(_ response: HTTPResponse, url: URL) throws(TransportError) -> Bool {
        let status = response.status.code
        if let resume, status == 206 {
            let start = response.headers["Content-Range"].flatMap(Self.rangeStart)
            guard start == resume.offset else {
                throw TransportError(
                    category: .resumeFailed,
                    message:
                        "the server resumed at \(start.map(String.init) ?? "an unknown offset"), not \(resume.offset)",
                    url: url
                )
            }
            try open(flags: O_WRONLY | O_CREAT | O_CLOEXEC, url: url)
            guard ftruncate(descriptor, off_t(resume.offset)) == 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
                throw Self.failure("cannot seek in \(path)", url: url)
            }
            length = resume.offset
            return true
        }
        if resume != nil {
            if status == 416 {
                // The refused head travels with the error, as the libcurl transport attaches it.
                throw TransportError(
                    category: .resumeFailed,
                    message: "the server refused the range (416)",
                    url: url,
                    response: response
                )
            }
            // Another status keeps the partial file for a later attempt; 200 starts it over.
            guard status == 200 else { return false }
        }
        try open(flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, url: url)
        length = 0
        return true
    }

    /// Appends `chunk`.
    func write(_ chunk: Data, url: URL) throws(TransportError) {
        var failed = false
        chunk.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += written
            }
        }
        if failed { throw Self.failure("cannot write \(path)", url: url) }
        length += Int64(chunk.count)
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    private func open(flags: Int32, url: URL) throws(TransportError) {
        descriptor = Glibc.open(path, flags, 0o644)
        guard descriptor >= 0 else { throw Self.failure("cannot open \(path) for writing", url: url) }
    }

    private static func failure(_ message: String, url: URL) -> TransportError {
        TransportError(category: .fileFailed, message: "\(message): \(String(cString: strerror(errno)))", url: url)
    }

    /// The first byte of a `Content-Range: bytes <first>-<last>/<length>` value.
    private static func rangeStart(_ value: String) -> Int64? {
        guard value.hasPrefix("bytes ") else { return nil }
        return Int64(value.dropFirst(6).prefix { $0 != "-" })
    }
}

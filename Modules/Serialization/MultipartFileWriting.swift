public import CourierHTTP
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

extension MultipartFormData {
    /// Writes the encoded form to a file and returns a body that sends that file.
    ///
    /// AFNetworking's `requestWithMultipartFormRequest:writingStreamContentsToFile:` exists for
    /// servers and transports that need a plain file upload with a known length (Amazon S3, for one).
    /// The body is copied in 256 KiB chunks, so a form with gigabyte files never sits in memory;
    /// the form's pacing is ignored (a file is not a network link) and one-shot streams are read here. The copy
    /// checks every length, and a failed copy deletes the partial file.
    ///
    /// The chunks are written with plain POSIX calls from this async function: regular-file I/O
    /// does not wait on the network, and the loop checks for cancellation between chunks.
    ///
    /// ```swift
    /// let body = try await form.write(to: "/var/tmp/upload.multipart")
    /// body.length == form.contentLength  // true
    /// ```
    /// - Parameter path: The file to create or replace.
    /// - Returns: A body reading the file (`HTTPBody(fileAt:)`).
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/multipartStreamFailed``
    ///   when the file cannot be written, a part cannot be read or has the wrong length, or the task
    ///   is cancelled; ``SerializationError/Code/fileNotReachable`` for a part file that vanished.
    @discardableResult
    public func write(to path: String) async throws(SerializationError) -> HTTPBody {
        let source = try await makeBodySource(spillingData: false)
        let output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw MultipartErrors.streamFailed(
                "cannot create \(path.debugDescription): \(String(cString: strerror(errno)))"
            )
        }
        do throws(SerializationError) {
            try await copy(source.makeUnpacedReader(), to: output, path: path)
        } catch {
            close(output)
            unlink(path)
            throw error
        }
        guard close(output) == 0 else {
            unlink(path)
            throw MultipartErrors.streamFailed(
                "cannot finish \(path.debugDescription): \(String(cString: strerror(errno)))"
            )
        }
        do {
            return try HTTPBody(fileAt: path)
        } catch {
            throw MultipartErrors.fileNotReachable(path, underlying: error)
        }
    }

    /// Writes the form to a file and returns `request` with the file as its body and the form's
    /// `Content-Type` and `Content-Length`, ready for a plain file upload.
    ///
    /// An empty form leaves the request as it is (the empty file is still written).
    ///
    /// ```swift
    /// let upload = try await form.request(request, writingBodyTo: "/var/tmp/upload.multipart")
    /// upload.headers["Content-Length"]  // the exact size of the file
    /// ```
    /// - Throws: As ``write(to:)``.
    public func request(
        _ request: HTTPRequest,
        writingBodyTo path: String
    ) async throws(SerializationError) -> HTTPRequest {
        let body = try await write(to: path)
        guard !isEmpty else { return request }
        var result = request
        try setHeaders(of: &result)
        result.body = body
        return result
    }

    private func copy(
        _ reader: MultipartBodyReader,
        to output: Int32,
        path: String
    ) async throws(SerializationError) {
        var copied: Int64 = 0
        do {
            // The form's own pacing is off here; only a caller's stream source can ask to wait.
            try await reader.readToEnd(bufferSize: 256 * 1024) { chunk in
                try writeAll(chunk, to: output, path: path)
                copied += Int64(chunk.count)
            }
        } catch let error as SerializationError {
            throw error
        } catch is CancellationError {
            throw MultipartErrors.streamFailed("writing \(path.debugDescription) was cancelled")
        } catch {
            throw MultipartErrors.streamFailed("a part could not be read", underlying: error)
        }
        guard copied == contentLength else {
            throw MultipartErrors.streamFailed("wrote \(copied) bytes where the form has \(contentLength)")
        }
    }

    private func writeAll(_ chunk: UnsafeRawBufferPointer, to output: Int32, path: String) throws(SerializationError) {
        var offset = 0
        let count = chunk.count
        while offset < count {
            let written = chunk.baseAddress.map { systemWrite(output, $0 + offset, count - offset) } ?? -1
            if written < 0 {
                if errno == EINTR { continue }
                throw MultipartErrors.streamFailed(
                    "cannot write \(path.debugDescription): \(String(cString: strerror(errno)))"
                )
            }
            offset += written
        }
    }
}

public import CourierHTTP
public import CourierSerialization
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

extension SessionManager {
    /// Makes an upload task whose body is `body` (bytes, a file range, a replayable stream such as a
    /// streaming multipart form, or a one-shot producer); call ``SessionTask/resume()`` to start it.
    ///
    /// An upload task is a data task with a body, as in AFNetworking; the body streams from where it
    /// is, so a large file is never held in memory.
    ///
    /// ```swift
    /// let body = try HTTPBody(fileAt: "/var/tmp/video.mp4")
    /// session.uploadTask(with: HTTPRequest(method: .put, url: url), body: body, progress: { print($0.fraction ?? 0) }) { response in
    ///     print(response.response?.status ?? "failed")
    /// }.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is replaced by `body`.
    ///   - body: The body to send.
    ///   - progress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    public func uploadTask(
        with request: HTTPRequest,
        body: HTTPBody,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Data>) -> Void
    ) -> SessionTask {
        var request = request
        request.body = body
        return dataTask(with: request, uploadProgress: progress, completion: completion)
    }

    /// Makes an upload task that sends the file at `path`, read lazily as it is sent.
    ///
    /// ```swift
    /// let task = try session.uploadTask(with: HTTPRequest(method: .post, url: url), fromFile: "/var/tmp/log.gz") { _ in }
    /// task.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is replaced by the file.
    ///   - path: The file to send.
    ///   - progress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    /// - Throws: `HTTPValueError` when the file cannot be opened.
    public func uploadTask(
        with request: HTTPRequest,
        fromFile path: String,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Data>) -> Void
    ) throws(HTTPValueError) -> SessionTask {
        uploadTask(with: request, body: try HTTPBody(fileAt: path), progress: progress, completion: completion)
    }

    /// Makes an upload task that sends `data`.
    ///
    /// ```swift
    /// session.uploadTask(with: HTTPRequest(method: .put, url: url), from: Data("hello".utf8)) { _ in }.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is replaced by `data`.
    ///   - data: The bytes to send.
    ///   - progress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    public func uploadTask(
        with request: HTTPRequest,
        from data: Data,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Data>) -> Void
    ) -> SessionTask {
        uploadTask(with: request, body: HTTPBody(data), progress: progress, completion: completion)
    }

    /// Makes an upload task that sends a streaming multipart form; its `Content-Type` (with the
    /// boundary) and exact `Content-Length` are set from the form. Files stream as the body is sent;
    /// one-shot stream parts are copied to a temporary file first (why this is `async`).
    ///
    /// ```swift
    /// var form = MultipartFormData()
    /// try form.appendFile(atPath: "/var/tmp/beach.jpg", name: "photo")
    /// try await session.uploadTask(with: HTTPRequest(method: .post, url: url), multipartForm: form) { _ in }.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is replaced by the form.
    ///   - form: The form.
    ///   - progress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    /// - Throws: `SerializationError` when the form cannot be made into a body, `HTTPValueError` when
    ///   its headers cannot be set.
    public func uploadTask(
        with request: HTTPRequest,
        multipartForm form: MultipartFormData,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Data>) -> Void
    ) async throws -> SessionTask {
        var request = request
        try request.headers.set(name: "Content-Type", value: form.contentType)
        try request.headers.set(name: "Content-Length", value: String(form.contentLength))
        return uploadTask(with: request, body: try await form.makeBody(), progress: progress, completion: completion)
    }
}

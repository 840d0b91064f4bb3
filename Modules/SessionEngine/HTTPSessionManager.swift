public import CourierHTTP
internal import CourierLocking
public import CourierSerialization
public import CourierSessionCore
public import CourierTransport
internal import Dispatch
public import FoundationEssentials

/// AFNetworking's `AFHTTPSessionManager`: a session with a base URL, a request serializer and a
/// response serializer, and one call per HTTP verb.
///
/// URLs given to a call are resolved against ``baseURL`` as RFC 3986 §5 says, after AFNetworking's
/// normalisation (a base URL with a path gets a trailing `/`, so `v1` stays in
/// `https://api.example.com/v1` + `users`). Parameters go where the request serializer puts them
/// (the query string for `GET`, `HEAD` and `DELETE`; the body otherwise), and per-call headers
/// replace the serializer's defaults of the same name.
///
/// ```swift
/// let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1"), session: session)
/// api.get("users", parameters: ["page": 2]) { response in
///     if let users = response.value { print(users) }
/// }
/// let me: User = try await api.decodable(.get, "me", as: User.self).get() ?? fallback
/// ```
public final class HTTPSessionManager: HTTPSession {
    /// The session every call runs on.
    public let session: SessionManager
    /// The base URL every call's URL string is resolved against, normalised; `nil` for none.
    public let baseURL: URL?

    private struct Serializers: Sendable {
        var request: any EncodableRequestSerializing
        var response: JSONResponseSerializer
    }

    private let serializers: Lock<Serializers>

    /// Creates a manager.
    ///
    /// ```swift
    /// let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1"), session: session)
    /// api.baseURL?.absoluteString  // "https://api.example.com/v1/"
    /// ```
    /// - Parameters:
    ///   - baseURL: The base URL; one with a non-empty path that does not end in `/` gets one.
    ///   - session: The session to run on.
    public init(baseURL: URL?, session: SessionManager) {
        self.baseURL = baseURL.map(URLResolution.normalisedBase)
        self.session = session
        serializers = Lock(Serializers(request: HTTPRequestSerializer(), response: JSONResponseSerializer()))
    }

    /// Ends the session's tasks and, when the session made its transport through a factory, the
    /// transport too (``SessionManager/shutdown()``); safe to call more than once.
    ///
    /// ```swift
    /// await api.shutdown()
    /// ```
    public func shutdown() async {
        await session.shutdown()
    }

    /// The request serializer: form parameters by default (AFNetworking's `AFHTTPRequestSerializer`).
    public var requestSerializer: any EncodableRequestSerializing {
        get { serializers.withLock { $0.request } }
        set { serializers.withLock { $0.request = newValue } }
    }

    /// The response serializer of the verb calls: JSON by default, as AFNetworking's.
    public var responseSerializer: JSONResponseSerializer {
        get { serializers.withLock { $0.response } }
        set { serializers.withLock { $0.response = newValue } }
    }

    // MARK: Tasks

    /// Makes a data task for a call without resuming it (AFNetworking's `dataTaskWithHTTPMethod`).
    ///
    /// When the request cannot be serialized there is no task: `completion` is called on the
    /// session's completion queue with the error, and the result is `nil`, as in AFNetworking.
    ///
    /// ```swift
    /// let task = api.dataTask(.patch, "me", parameters: ["name": "Ada"], serializer: DataResponseSerializer()) { _ in }
    /// task?.resume()
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - serializer: The response serializer.
    ///   - uploadProgress: Called on the completion queue as the body is sent.
    ///   - downloadProgress: Called on the completion queue as the response arrives.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The task, suspended, or `nil` when the request could not be serialized.
    public func dataTask<Serializer: ResponseSerializing>(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        serializer: Serializer,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask? {
        let request: HTTPRequest
        do {
            request = try self.request(method, urlString, parameters: parameters, headers: headers)
        } catch {
            let response = DataResponse<Serializer.Output>.serializationFailure(error)
            session.completionQueue.async(group: session.completionGroup) { completion(response) }
            return nil
        }
        return session.dataTask(
            with: request,
            serializer: serializer,
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress,
            completion: completion
        )
    }

    /// `GET` with parameters in the query string; resumed. The value is the response serializer's.
    ///
    /// ```swift
    /// api.get("users", parameters: ["page": 2]) { response in print(response.value ?? .null) }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The query parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - downloadProgress: Called on the completion queue as the response arrives.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func get(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.get, urlString, parameters, headers, downloadProgress: downloadProgress, completion: completion)
    }

    /// `HEAD`; resumed. Only the response matters (AFNetworking's success block gets no object).
    ///
    /// ```swift
    /// api.head("files/report.pdf") { response in print(response.response?.headers["Content-Length"] ?? "-") }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The query parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func head(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.head, urlString, parameters, headers, completion: completion)
    }

    /// `POST` with parameters in the body; resumed.
    ///
    /// ```swift
    /// api.post("items", parameters: ["name": "Ada"]) { response in print(response.response?.status ?? "-") }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The body parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - uploadProgress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func post(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.post, urlString, parameters, headers, uploadProgress: uploadProgress, completion: completion)
    }

    /// `POST` of a streaming multipart form built by `constructingBody`; resumed.
    ///
    /// ```swift
    /// await api.post("photos", parameters: ["album": "Holiday"], constructingBody: { form in
    ///     try form.appendFile(atPath: "/var/tmp/beach.jpg", name: "photo")
    /// }) { response in print(response.response?.status ?? "-") }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: Parameters sent as form-data parts before the others.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - constructingBody: Appends the form's parts.
    ///   - uploadProgress: Called on the completion queue as the body is sent.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the form could not be built.
    @discardableResult
    public func post(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        constructingBody: (inout MultipartFormData) throws -> Void,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) async -> SessionTask? {
        let request: HTTPRequest
        do {
            let form = (requestSerializer as? HTTPRequestSerializer) ?? HTTPRequestSerializer()
            request = try await form.multipartFormRequest(
                url: try callURL(urlString),
                parameters: parameters,
                constructingBody: constructingBody
            )
            .replacingHeaders(with: headers)
        } catch {
            let response = DataResponse<JSONValue>.serializationFailure(error)
            session.completionQueue.async(group: session.completionGroup) { completion(response) }
            return nil
        }
        let task = session.dataTask(
            with: request,
            serializer: responseSerializer,
            uploadProgress: uploadProgress,
            completion: completion
        )
        task.resume()
        return task
    }

    /// `PUT` with parameters in the body; resumed.
    ///
    /// ```swift
    /// api.put("items/7", parameters: ["name": "Ada"]) { _ in }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The body parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func put(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.put, urlString, parameters, headers, completion: completion)
    }

    /// `PATCH` with parameters in the body; resumed.
    ///
    /// ```swift
    /// api.patch("items/7", parameters: ["name": "Ada"]) { _ in }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The body parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func patch(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.patch, urlString, parameters, headers, completion: completion)
    }

    /// `DELETE` with parameters in the query string; resumed.
    ///
    /// ```swift
    /// api.delete("items/7") { response in print(response.response?.status ?? "-") }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The query parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - completion: Called once on the completion queue.
    /// - Returns: The running task, or `nil` when the request could not be serialized.
    @discardableResult
    public func delete(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        start(.delete, urlString, parameters, headers, completion: completion)
    }

    private func start(
        _ method: HTTPMethod,
        _ urlString: String,
        _ parameters: Parameters?,
        _ headers: HTTPHeaders,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (DataResponse<JSONValue>) -> Void
    ) -> SessionTask? {
        let task = dataTask(
            method,
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: responseSerializer,
            uploadProgress: uploadProgress,
            downloadProgress: downloadProgress,
            completion: completion
        )
        task?.resume()
        return task
    }

    // MARK: Async

    /// Sends `request` through ``session`` and returns what it ended with (the `HTTPSession`
    /// requirement the calls with URL strings go through).
    ///
    /// ```swift
    /// let response = await api.response(for: request, serializer: JSONResponseSerializer(), options: RequestOptions())
    /// ```
    /// - Parameters:
    ///   - request: The request, sent as given (not resolved against ``baseURL``).
    ///   - serializer: Validates and decodes the final response.
    ///   - options: How this request is sent and received.
    /// - Returns: The response, value, error and metrics.
    public func response<Serializer: ResponseSerializing>(
        for request: HTTPRequest,
        serializer: Serializer,
        options: RequestOptions
    ) async -> DataResponse<Serializer.Output> {
        await session.response(for: request, serializer: serializer, options: options)
    }

    /// Downloads `request` through ``session``.
    ///
    /// ```swift
    /// let response = await api.download(for: request, to: { _, _ in .init(path: "/var/tmp/a.bin") }, options: RequestOptions())
    /// ```
    /// - Parameters:
    ///   - request: The request, sent as given.
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    ///   - options: The request's options; only `RequestOptions.download` applies.
    /// - Returns: The outcome.
    public func download(
        for request: HTTPRequest,
        to destination: DownloadDestination.Choose?,
        options: RequestOptions
    ) async -> DownloadResponse {
        await session.download(for: request, to: destination, options: options)
    }

    /// Sends a call and returns at its response head, with the body to read as it arrives
    /// (``SessionManager/streamingResponse(for:options:)``); the response serializer is not used.
    ///
    /// ```swift
    /// let stream = try await api.streamingResponse(.get, "events", parameters: ["since": 42])
    /// for try await chunk in stream.body { parser.feed(chunk) }
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The parameters, placed by the request serializer.
    ///   - headers: Fields that replace the serializer's defaults of the same name.
    /// - Returns: The head, the task and the body.
    /// - Throws: `SessionError` when the request could not be made or no head arrived.
    public func streamingResponse(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) async throws(SessionError) -> StreamingResponse {
        let request = try SessionError.serializing { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await session.streamingResponse(for: request)
    }

}

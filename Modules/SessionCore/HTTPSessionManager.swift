public import CourierHTTP
internal import CourierLocking
public import CourierSerialization
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
public final class HTTPSessionManager: Sendable {
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
        self.baseURL = baseURL.map(Self.normalised)
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

    /// AFNetworking's base-URL normalisation: a non-empty path that does not end in `/` gets one
    /// (`URLByAppendingPathComponent:@""`), before any query.
    static func normalised(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            !components.percentEncodedPath.isEmpty, !components.percentEncodedPath.hasSuffix("/")
        else { return url }
        components.percentEncodedPath += "/"
        return components.url ?? url
    }

    /// Resolves a URL reference against a base URL as RFC 3986 §5.2 says (§5.4 lists the examples
    /// this follows, normal and abnormal).
    ///
    /// ```swift
    /// HTTPSessionManager.resolve("../g", against: URL(string: "http://a/b/c/d;p?q")!)  // http://a/b/g
    /// ```
    /// - Parameters:
    ///   - reference: An absolute URL or a relative reference; the empty reference is the base
    ///     without its fragment.
    ///   - base: The base URL.
    /// - Returns: The target URL, or `nil` when `reference` is not a URL reference.
    public static func resolve(_ reference: String, against base: URL) -> URL? {
        guard !reference.isEmpty else {
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return nil }
            components.fragment = nil
            return components.url
        }
        return URL(string: reference, relativeTo: base)?.absoluteURL
    }

    // MARK: Requests

    /// The URL a call for `urlString` would use: resolved against ``baseURL`` (RFC 3986 §5.2).
    ///
    /// ```swift
    /// api.url(for: "../v2/users?active=1")  // https://api.example.com/v2/users?active=1
    /// ```
    /// - Parameter urlString: An absolute URL, or a reference relative to the base URL.
    /// - Returns: The absolute URL, or `nil` when the string is not a URL reference.
    public func url(for urlString: String) -> URL? {
        guard let baseURL else { return URL(string: urlString) }
        return Self.resolve(urlString, against: baseURL)
    }

    /// The request a call would send, without sending it: for logging, `curlDescription`, tests.
    ///
    /// ```swift
    /// let request = try api.request(.post, "items", parameters: ["name": "Ada"])
    /// print(request.curlDescription())
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The parameters, placed by the request serializer.
    ///   - headers: Fields that replace the serializer's defaults of the same name.
    /// - Throws: `SerializationError` for a bad URL or parameters that cannot be encoded.
    public func request(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) throws(SerializationError) -> HTTPRequest {
        let serializer = requestSerializer
        let request = try serializer.serialize(
            serializer.makeRequest(method: method, url: try resolve(urlString)),
            parameters: parameters
        )
        return Self.overriding(request, with: headers)
    }

    /// The request a call with an `Encodable` value would send, without sending it.
    ///
    /// ```swift
    /// let request = try api.request(.put, "me", encoding: Profile(name: "Ada"))
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - value: The value, placed and encoded by the request serializer.
    ///   - headers: Fields that replace the serializer's defaults of the same name.
    /// - Throws: `SerializationError` for a bad URL or a value that cannot be encoded.
    public func request(
        _ method: HTTPMethod,
        _ urlString: String,
        encoding value: some Encodable,
        headers: HTTPHeaders = HTTPHeaders()
    ) throws(SerializationError) -> HTTPRequest {
        let serializer = requestSerializer
        let request = try serializer.serialize(
            serializer.makeRequest(method: method, url: try resolve(urlString)),
            encoding: value
        )
        return Self.overriding(request, with: headers)
    }

    private func resolve(_ urlString: String) throws(SerializationError) -> URL {
        guard let url = url(for: urlString), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw SerializationError(
                code: .invalidRequest,
                domain: .request,
                urlErrorCode: -1000,
                localizedDescription: "The URL \(urlString.debugDescription) is not a valid http or https URL.",
                failureReason: "A request needs an absolute http or https URL, or a base URL to resolve against."
            )
        }
        return url
    }

    /// AFNetworking applies per-call headers after serialization, replacing same-named defaults.
    private static func overriding(_ request: HTTPRequest, with headers: HTTPHeaders) -> HTTPRequest {
        var request = request
        for name in Set(headers.map { $0.name.lowercased() }) { request.headers.remove(name: name) }
        for field in headers { try? request.headers.add(name: field.name, value: field.value) }
        return request
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
            request = Self.overriding(
                try await form.multipartFormRequest(
                    url: try resolve(urlString),
                    parameters: parameters,
                    constructingBody: constructingBody
                ),
                with: headers
            )
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

    /// Sends a call and returns the validated body.
    ///
    /// ```swift
    /// let body = try await api.data(.get, "report.csv").data
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    /// - Returns: The response, with the body as its value.
    /// - Throws: ``SessionError``: a request that cannot be serialized is a
    ///   ``SessionError/Kind/serialization`` error.
    public func data(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) async throws(SessionError) -> DataResponse<Data> {
        let request = try serialized { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await session.data(for: request)
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
    /// - Throws: ``SessionError`` when the request could not be made or no head arrived.
    public func streamingResponse(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) async throws(SessionError) -> StreamingResponse {
        let request = try serialized { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await session.streamingResponse(for: request)
    }

    /// Sends a call and decodes the response as `type`.
    ///
    /// ```swift
    /// let users = try await api.decodable(.get, "users", as: [User].self).get()
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - parameters: The parameters.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - type: The type to decode.
    /// - Returns: The response; its value is `nil` for an empty body that AFNetworking allows.
    /// - Throws: ``SessionError`` when the call or the decoding failed.
    public func decodable<Value: Decodable & Sendable>(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        as type: Value.Type
    ) async throws(SessionError) -> DataResponse<Value> {
        let request = try serialized { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await send(request, as: type)
    }

    /// Sends an `Encodable` value and decodes the response as `type`.
    ///
    /// ```swift
    /// let created = try await api.decodable(.post, "items", encoding: NewItem(name: "Ada"), as: Item.self)
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - value: The value, encoded by the request serializer.
    ///   - headers: Fields that replace the serializer's defaults.
    ///   - type: The type to decode.
    /// - Returns: The response.
    /// - Throws: ``SessionError`` when the call, the encoding or the decoding failed.
    public func decodable<Value: Decodable & Sendable>(
        _ method: HTTPMethod,
        _ urlString: String,
        encoding value: some Encodable,
        headers: HTTPHeaders = HTTPHeaders(),
        as type: Value.Type
    ) async throws(SessionError) -> DataResponse<Value> {
        let request = try serialized { () throws(SerializationError) in
            try self.request(method, urlString, encoding: value, headers: headers)
        }
        return try await send(request, as: type)
    }

    private func send<Value: Decodable & Sendable>(
        _ request: HTTPRequest,
        as type: Value.Type
    ) async throws(SessionError) -> DataResponse<Value> {
        let response = await session.response(for: request, serializer: DecodableResponseSerializer<Value>())
        if let error = response.error { throw error }
        return response
    }

    private func serialized(
        _ make: () throws(SerializationError) -> HTTPRequest
    ) throws(SessionError) -> HTTPRequest {
        do {
            return try make()
        } catch {
            throw SessionError(
                kind: .serialization,
                message: error.description,
                failingURL: error.failingURL,
                underlying: error
            )
        }
    }
}

extension DataResponse {
    /// The outcome of a call whose request could not be built: no task, no response.
    static func serializationFailure(_ error: SerializationError) -> DataResponse {
        DataResponse(
            request: nil,
            response: nil,
            data: nil,
            value: nil,
            error: SessionError(
                kind: .serialization,
                message: error.description,
                failingURL: error.failingURL,
                underlying: error
            ),
            metrics: [],
            redirects: [],
            retryCount: 0
        )
    }
}

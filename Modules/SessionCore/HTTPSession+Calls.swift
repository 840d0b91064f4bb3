public import CourierHTTP
public import CourierSerialization
public import FoundationEssentials

// The calls an app writes, for every HTTPSession: the same URL resolution, parameter placement and
// errors whether the session is the engine or a double.
extension HTTPSession {
    /// Sends `request` with the default options and returns what it ended with.
    ///
    /// ```swift
    /// let response = await session.response(for: request, serializer: JSONResponseSerializer())
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - serializer: Validates and decodes the final response.
    /// - Returns: The response, value, error and metrics.
    public func response<Serializer: ResponseSerializing>(
        for request: HTTPRequest,
        serializer: Serializer
    ) async -> DataResponse<Serializer.Output> {
        await response(for: request, serializer: serializer, options: RequestOptions())
    }

    /// Downloads `request`'s body to a file with the default options (a temporary partial file).
    ///
    /// ```swift
    /// let response = await session.download(for: request, to: { _, _ in DownloadDestination(path: "/var/tmp/a.iso") })
    /// if let path = response.filePath { print("saved to \(path)") }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Picks the final path; `nil` deletes the file once the download completes.
    /// - Returns: The final file, or the error and resume data.
    public func download(
        for request: HTTPRequest,
        to destination: DownloadDestination.Choose?
    ) async -> DownloadResponse {
        await download(for: request, to: destination, options: RequestOptions())
    }

    /// Sends `request` and returns the validated body, or throws.
    ///
    /// ```swift
    /// let body = try await session.data(for: request).data
    /// ```
    /// - Parameter request: The request.
    /// - Returns: The response, with ``DataResponse/value`` the body.
    /// - Throws: ``SessionError`` when the transport, a redirect, an interceptor or validation failed.
    public func data(for request: HTTPRequest) async throws(SessionError) -> DataResponse<Data> {
        let response = await response(for: request, serializer: DataResponseSerializer(), options: RequestOptions())
        if let error = response.error { throw error }
        return response
    }

    // MARK: Calls with URL strings

    /// The URL a call for `urlString` would use: resolved against ``baseURL`` (RFC 3986 §5.2).
    ///
    /// ```swift
    /// api.url(for: "../v2/users?active=1")  // https://api.example.com/v2/users?active=1
    /// ```
    /// - Parameter urlString: An absolute URL, or a reference relative to the base URL.
    /// - Returns: The absolute URL, or `nil` when the string is not a URL reference.
    public func url(for urlString: String) -> URL? {
        guard let baseURL else { return URL(string: urlString) }
        return URLResolution.resolve(urlString, against: baseURL)
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
        try callRequest(method, urlString, headers) { serializer, request throws(SerializationError) in
            try serializer.serialize(request, parameters: parameters)
        }
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
        try callRequest(method, urlString, headers) { serializer, request throws(SerializationError) in
            try serializer.serialize(request, encoding: value)
        }
    }

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
        let request = try SessionError.serializing { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await data(for: request)
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
        let request = try SessionError.serializing { () throws(SerializationError) in
            try self.request(method, urlString, parameters: parameters, headers: headers)
        }
        return try await decoded(request, as: type)
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
        let request = try SessionError.serializing { () throws(SerializationError) in
            try self.request(method, urlString, encoding: value, headers: headers)
        }
        return try await decoded(request, as: type)
    }

    /// The absolute http or https URL of a call, or the serialization error AFNetworking reports.
    package func callURL(_ urlString: String) throws(SerializationError) -> URL {
        // A scheme is ASCII (RFC 3986 §3.1): comparing ASCII case-insensitively needs no lower-cased copy.
        guard let url = url(for: urlString), let scheme = url.scheme,
            HTTPHeaders.namesMatch(scheme, "http") || HTTPHeaders.namesMatch(scheme, "https"), Self.hasHost(url)
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

    /// Whether `url.host` is not `nil`, without decoding the host: only a percent-encoded host can
    /// fail to decode (`%FF`), and only then is the decoded form asked for.
    private static func hasHost(_ url: URL) -> Bool {
        guard let encoded = url.host(percentEncoded: true) else { return false }
        let plain = encoded.utf8.withContiguousStorageIfAvailable { !$0.contains(UInt8(ascii: "%")) }
        return plain == true || url.host != nil
    }

    /// The request serializer's request for a call, with `place` putting the call's parameters or
    /// value in it, then the call's headers over the serializer's defaults.
    private func callRequest(
        _ method: HTTPMethod,
        _ urlString: String,
        _ headers: HTTPHeaders,
        place: (any EncodableRequestSerializing, HTTPRequest) throws(SerializationError) -> HTTPRequest
    ) throws(SerializationError) -> HTTPRequest {
        let serializer = requestSerializer
        let request = try place(serializer, serializer.makeRequest(method: method, url: try callURL(urlString)))
        // Most calls pass no headers of their own: the request is returned as it is, not copied.
        guard !headers.isEmpty else { return request }
        return request.replacingHeaders(with: headers)
    }

    private func decoded<Value: Decodable & Sendable>(
        _ request: HTTPRequest,
        as type: Value.Type
    ) async throws(SessionError) -> DataResponse<Value> {
        let response = await response(
            for: request,
            serializer: DecodableResponseSerializer<Value>(decoder: sharedJSONDecoder),
            options: RequestOptions()
        )
        if let error = response.error { throw error }
        return response
    }
}

/// The decoder of every `decodable` call, as the serializer's default (a `JSONDecoder` with default
/// options): a decoder keeps no state between decodes, and making one per call cost an allocation and
/// its options' setup each time. It is never handed out, so nothing can change its options.
private let sharedJSONDecoder = JSONDecoder()

extension HTTPRequest {
    /// AFNetworking applies per-call headers after serialization, replacing same-named defaults.
    package func replacingHeaders(with headers: HTTPHeaders) -> HTTPRequest {
        // Most calls pass no headers of their own: nothing to replace, nothing to copy.
        if headers.isEmpty { return self }
        var request = self
        for name in Set(headers.map { $0.name.lowercased() }) { request.headers.remove(name: name) }
        for field in headers { try? request.headers.add(name: field.name, value: field.value) }
        return request
    }
}

extension SessionError {
    /// Runs `make`, turning a serialization failure into a ``Kind/serialization`` session error.
    package static func serializing(
        _ make: () throws(SerializationError) -> HTTPRequest
    ) throws(SessionError) -> HTTPRequest {
        do {
            return try make()
        } catch {
            throw .unbuiltRequest(error)
        }
    }

    /// The error of a call whose request could not be built: a ``Kind/serialization`` error with
    /// no response.
    package static func unbuiltRequest(_ error: SerializationError) -> SessionError {
        SessionError(kind: .serialization, message: error.description, failingURL: error.failingURL, underlying: error)
    }
}

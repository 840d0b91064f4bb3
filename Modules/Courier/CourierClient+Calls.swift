public import CourierHTTP
public import CourierSerialization
public import CourierSessionCore
public import FoundationEssentials

extension CourierClient {
    /// `GET` with parameters in the query string, decoded as `Value` after AFNetworking's
    /// validation (statuses 200–299, a JSON content type).
    ///
    /// ```swift
    /// let user: User = try await client.get("users/42")
    /// let page = try await client.get("users", parameters: ["page": 2], as: [User].self)
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to the base URL when there is one.
    ///   - parameters: The query parameters.
    ///   - headers: Fields that replace the request serializer's defaults.
    ///   - type: The type to decode; inferred from the context when left out.
    /// - Returns: The decoded value.
    /// - Throws: `SessionError` when the request, the transfer, validation or decoding failed.
    public func get<Value: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        as type: Value.Type = Value.self
    ) async throws(SessionError) -> Value {
        try Self.value(
            of: await session.decodable(.get, urlString, parameters: parameters, headers: headers, as: type)
        )
    }

    /// `POST` of an `Encodable` value, encoded by the request serializer, decoded as `Value`.
    ///
    /// ```swift
    /// let created: Item = try await client.post("items", encoding: NewItem(name: "Ada"))
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to the base URL when there is one.
    ///   - value: The body's value.
    ///   - headers: Fields that replace the request serializer's defaults.
    ///   - type: The type to decode; inferred from the context when left out.
    /// - Returns: The decoded value.
    /// - Throws: `SessionError` when the encoding, the transfer, validation or decoding failed.
    public func post<Value: Decodable & Sendable>(
        _ urlString: String,
        encoding value: some Encodable,
        headers: HTTPHeaders = HTTPHeaders(),
        as type: Value.Type = Value.self
    ) async throws(SessionError) -> Value {
        try Self.value(
            of: await session.decodable(.post, urlString, encoding: value, headers: headers, as: type)
        )
    }

    /// Sends a call and returns the whole response, its body unparsed: status, headers, metrics,
    /// redirects and retries included.
    ///
    /// ```swift
    /// let response = try await client.data(.delete, "items/7")
    /// print(response.response?.status ?? "-", response.retryCount)
    /// ```
    /// - Parameters:
    ///   - method: The method.
    ///   - urlString: The URL, relative to the base URL when there is one.
    ///   - parameters: The parameters, placed by the request serializer.
    ///   - headers: Fields that replace the request serializer's defaults.
    /// - Returns: The response, with the body as its value.
    /// - Throws: `SessionError` when the request, the transfer or the status check failed.
    public func data(
        _ method: HTTPMethod,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) async throws(SessionError) -> DataResponse<Data> {
        try await session.data(method, urlString, parameters: parameters, headers: headers)
    }

    /// The value of a decoded response; a response with neither value nor error (a body the
    /// serializer allowed to be empty, for a type with no empty value) is a serialization error.
    private static func value<Value>(of response: DataResponse<Value>) throws(SessionError) -> Value {
        guard let value = try response.get() else {
            throw SessionError(
                kind: .serialization,
                message: "the response has no content to decode as \(Value.self)",
                failingURL: response.request?.url,
                response: response.response,
                data: response.data
            )
        }
        return value
    }
}

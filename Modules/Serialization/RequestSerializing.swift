public import CourierHTTP
public import FoundationEssentials

/// Turns a request and its parameters into the request that goes on the wire: default headers,
/// parameters in the query string or the body, and the matching `Content-Type`.
///
/// This is AFNetworking's `AFURLRequestSerialization`. Conformers are values: copy one, change a
/// header, and the copy is independent; nothing needs locking. ``HTTPRequestSerializer`` (form
/// bodies), ``JSONRequestSerializer`` and ``PropertyListRequestSerializer`` ship with Courier.
///
/// ```swift
/// let serializer: any RequestSerializing = JSONRequestSerializer()
/// let request = try serializer.request(
///     method: .post,
///     urlString: "https://api.example.com/items",
///     parameters: ["name": "Ada"]
/// )
/// ```
public protocol RequestSerializing: Sendable {
    /// Returns `request` with the serializer's default headers added where missing and `parameters`
    /// encoded into its URL or body.
    ///
    /// - Parameters:
    ///   - request: The request to complete; headers it already has win over defaults.
    ///   - parameters: The parameters, or `nil` for none (which is not the same as empty: a form
    ///     serializer still sets an empty body, a JSON serializer sets no body at all).
    /// - Throws: ``SerializationError`` when the parameters cannot be encoded.
    func serialize(_ request: HTTPRequest, parameters: Parameters?) throws(SerializationError) -> HTTPRequest

    /// Returns a bare request for `method` and `url` with the serializer's per-request settings
    /// (timeout, cookie handling) applied, before ``serialize(_:parameters:)``.
    ///
    /// The default returns `HTTPRequest(method:url:)` unchanged.
    func makeRequest(method: HTTPMethod, url: URL) -> HTTPRequest
}

extension RequestSerializing {
    /// Returns `HTTPRequest(method:url:)`, with no settings applied.
    public func makeRequest(method: HTTPMethod, url: URL) -> HTTPRequest {
        HTTPRequest(method: method, url: url)
    }

    /// Builds and serializes a request (AFNetworking's `requestWithMethod:URLString:parameters:error:`).
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(
    ///     method: .get,
    ///     url: URL(string: "https://example.com/search")!,
    ///     parameters: ["q": "swift"]
    /// )
    /// request.url.absoluteString  // "https://example.com/search?q=swift"
    /// ```
    /// - Throws: ``SerializationError`` when the parameters cannot be encoded.
    public func request(
        method: HTTPMethod,
        url: URL,
        parameters: Parameters? = nil
    ) throws(SerializationError) -> HTTPRequest {
        try serialize(makeRequest(method: method, url: url), parameters: parameters)
    }

    /// Builds and serializes a request for a URL string.
    ///
    /// Where AFNetworking asserts on a bad URL string, this throws.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(
    ///     method: .post,
    ///     urlString: "https://example.com/login",
    ///     parameters: ["user": "jane"]
    /// )
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` (URL error
    ///   code -1000, AFNetworking's "bad URL") when `urlString` is not an absolute `http` or `https`
    ///   URL; otherwise as ``serialize(_:parameters:)``.
    public func request(
        method: HTTPMethod,
        urlString: String,
        parameters: Parameters? = nil
    ) throws(SerializationError) -> HTTPRequest {
        try request(method: method, url: httpURL(urlString), parameters: parameters)
    }
}

/// `urlString` as an absolute `http` or `https` URL; where AFNetworking asserts, this throws.
func httpURL(_ urlString: String) throws(SerializationError) -> URL {
    guard let url = URL(string: urlString), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", url.host != nil
    else {
        throw .badURL(urlString)
    }
    return url
}

extension SerializationError {
    /// AFNetworking's JSON parameter failure: request domain, -1016, its exact failure reason.
    static func invalidJSONParameters(underlying: (any Error)?) -> SerializationError {
        SerializationError(
            code: .invalidJSONParameters,
            domain: .request,
            urlErrorCode: -1016,
            localizedDescription: "The operation couldn’t be completed. The `parameters` argument is not valid JSON.",
            failureReason: "The `parameters` argument is not valid JSON.",
            underlying: underlying
        )
    }

    /// A property-list parameter failure; AFNetworking returns the property-list writer's error
    /// itself, which is ``underlying`` here. The code is Foundation's 3852,
    /// `NSPropertyListWriteInvalidError` ("the object is not a property list").
    static func invalidPropertyListParameters(underlying: any Error) -> SerializationError {
        SerializationError(
            code: .invalidPropertyListParameters,
            domain: .request,
            urlErrorCode: 3852,
            localizedDescription: "The `parameters` argument could not be written as a property list.",
            failureReason: "\(underlying)",
            underlying: underlying
        )
    }

    /// A custom query closure's failure; AFNetworking returns the closure's error itself, which is
    /// ``underlying`` here.
    static func customQuerySerializationFailed(underlying: any Error, url: URL) -> SerializationError {
        SerializationError(
            code: .customQuerySerializationFailed,
            domain: .request,
            urlErrorCode: 0,
            localizedDescription: "The custom query string serialization failed.",
            failureReason: "\(underlying)",
            failingURL: url,
            underlying: underlying
        )
    }

    /// A URL string that is not an absolute HTTP URL (NSURLErrorBadURL, -1000).
    static func badURL(_ urlString: String) -> SerializationError {
        SerializationError(
            code: .invalidRequest,
            domain: .request,
            urlErrorCode: -1000,
            localizedDescription: "bad URL",
            failureReason: "\(urlString.debugDescription) is not an absolute http or https URL."
        )
    }

    /// A header name or value that HTTP cannot carry.
    static func invalidHeader(_ error: HTTPValueError) -> SerializationError {
        SerializationError(
            code: .invalidRequest,
            domain: .request,
            urlErrorCode: 0,
            localizedDescription: "The header field cannot be sent.",
            failureReason: error.description,
            underlying: error
        )
    }

    /// A URL that the query string made unparsable.
    static func invalidQueryURL(_ text: String, url: URL) -> SerializationError {
        SerializationError(
            code: .invalidRequest,
            domain: .request,
            urlErrorCode: -1000,
            localizedDescription: "bad URL",
            failureReason: "Appending the query string gave \(text.debugDescription), which is not a URL.",
            failingURL: url
        )
    }
}

public import CourierHTTP
public import FoundationEssentials

/// A request serializer that also takes `Encodable` values: Alamofire's `ParameterEncoder`, with
/// AFNetworking's split between URI methods and body methods.
///
/// ``HTTPRequestSerializer`` writes the value as a query string or form body with its
/// ``HTTPRequestSerializer/formEncoder`` (Alamofire's `URLEncodedFormParameterEncoder`);
/// ``JSONRequestSerializer`` and ``PropertyListRequestSerializer`` write it as their body format
/// (Alamofire's `JSONParameterEncoder`) and use the form encoder for `GET`, `HEAD` and `DELETE`, as
/// they do with ``Parameters``.
///
/// ```swift
/// struct NewItem: Encodable { let name: String; let tags: [String] }
/// let request = try JSONRequestSerializer().request(
///     method: .post,
///     urlString: "https://api.example.com/items",
///     encoding: NewItem(name: "Ada", tags: ["a"])
/// )
/// // body {"name":"Ada","tags":["a"]}, Content-Type: application/json
/// ```
public protocol EncodableRequestSerializing: RequestSerializing {
    /// Returns `request` with the serializer's default headers added where missing and `value`
    /// encoded into its URL or body.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .put, url: URL(string: "https://example.com/me")!)
    /// let sent = try JSONRequestSerializer().serialize(request, encoding: Profile(name: "Ada"))
    /// ```
    /// - Parameters:
    ///   - request: The request to complete; headers it already has win over defaults.
    ///   - value: The value; for a URI method it must be keyed (a struct or a dictionary).
    /// - Throws: ``SerializationError`` when the value cannot be encoded in the serializer's format.
    func serialize(_ request: HTTPRequest, encoding value: some Encodable) throws(SerializationError) -> HTTPRequest
}

extension EncodableRequestSerializing {
    /// Builds a request and encodes `value` into it.
    ///
    /// ```swift
    /// struct Search: Encodable { let q: String; let page: Int }
    /// let request = try HTTPRequestSerializer().request(
    ///     method: .get,
    ///     url: URL(string: "https://example.com/search")!,
    ///     encoding: Search(q: "swift", page: 2)
    /// )
    /// request.url.absoluteString  // "https://example.com/search?page=2&q=swift"
    /// ```
    /// - Throws: As ``serialize(_:encoding:)``.
    public func request(
        method: HTTPMethod,
        url: URL,
        encoding value: some Encodable
    ) throws(SerializationError) -> HTTPRequest {
        try serialize(makeRequest(method: method, url: url), encoding: value)
    }

    /// Builds a request for a URL string and encodes `value` into it.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(
    ///     method: .post,
    ///     urlString: "https://example.com/login",
    ///     encoding: ["user": "jane"]
    /// )
    /// // body "user=jane", Content-Type: application/x-www-form-urlencoded
    /// ```
    /// - Throws: ``SerializationError/Code/invalidRequest`` (-1000) for a URL string that is not an
    ///   absolute `http` or `https` URL; otherwise as ``serialize(_:encoding:)``.
    public func request(
        method: HTTPMethod,
        urlString: String,
        encoding value: some Encodable
    ) throws(SerializationError) -> HTTPRequest {
        try request(method: method, url: httpURL(urlString), encoding: value)
    }
}

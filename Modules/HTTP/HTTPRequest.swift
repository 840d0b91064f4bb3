public import FoundationEssentials

/// An HTTP request: method, URL, headers, body and per-request settings.
///
/// A value type: copy it, change it, send it again. Settings left `nil` take the transport's
/// documented defaults; settings given here win over them.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
/// try request.headers.set(name: "Content-Type", value: "application/json")
/// request.body = HTTPBody(Data(#"{"name":"Ada"}"#.utf8))
/// request.timeout = .seconds(10)
/// ```
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute URL, `http` or `https`.
    public var url: URL
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body; ``HTTPBody/empty`` by default.
    public var body: HTTPBody
    /// The longest the whole transfer may take; `nil` uses the transport's default.
    public var timeout: Duration?
    /// Whether the transport's cookie store is read and written for this request; `nil` uses the
    /// transport's default.
    public var handlesCookies: Bool?

    /// Creates a request.
    ///
    /// ```swift
    /// let request = HTTPRequest(method: .get, url: URL(string: "https://example.com/")!)
    /// ```
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The absolute URL.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

extension HTTPRequest: CustomStringConvertible {
    /// `"POST https://example.com/items"`
    public var description: String { "\(method) \(url.absoluteString)" }
}

public import FoundationEssentials

/// An HTTP request: method, URL, headers, body and per-request settings.
///
/// A value type: copy it, change it, send it again. Every per-request policy lives here, so an
/// adapter (an interceptor of the session layer) can change it: the timeouts, cookie handling, the
/// largest response body and the credential. Settings left `nil` take the transport's documented
/// defaults; settings given here win over them. How the response body is delivered (a stream or a
/// file, and buffering) is the transfer's business: see `TransferOptions` in `CourierTransport`.
///
/// ```swift
/// var request = HTTPRequest(method: .post, url: URL(string: "https://api.example.com/items")!)
/// try request.headers.set(name: "Content-Type", value: "application/json")
/// request.body = HTTPBody(Data(#"{"name":"Ada"}"#.utf8))
/// request.timeout = .seconds(10)
/// request.connectTimeout = .seconds(3)
/// request.maximumResponseBodySize = 8 << 20
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
    /// The longest the whole transfer may take (connecting, sending and receiving); `nil` uses the
    /// transport's default. This is AFNetworking's `timeoutInterval`.
    public var timeout: Duration?
    /// The longest to wait for a connection (name lookup, TCP and TLS handshakes); `nil` uses the
    /// transport's default.
    public var connectTimeout: Duration?
    /// The longest the transfer may move no bytes (a consumer's backpressure does not count); `nil`
    /// uses the transport's default.
    public var idleTimeout: Duration?
    /// Whether the transport's cookie store is read and written for this request; `nil` uses the
    /// transport's default.
    public var handlesCookies: Bool?
    /// The largest decoded response body accepted; a longer one fails the transfer. `nil` uses the
    /// transport's default, or, for a session task whose body is collected in memory, the
    /// session's (`SessionConfiguration.maximumInMemoryResponseBodySize`, 64 MiB by default).
    public var maximumResponseBodySize: Int64?
    /// The credential the transport answers an authentication challenge with; see
    /// ``HTTPCredential`` for when it is sent.
    public var credential: HTTPCredential?
    /// How a session's HTTP cache treats the request; ``HTTPCachePolicy/useProtocolPolicy`` by
    /// default. It does nothing in a session without a cache.
    public var cachePolicy: HTTPCachePolicy = .useProtocolPolicy
    /// Whether the URL's path goes out exactly as written, `.` and `..` segments included (the
    /// `curl` tool's `--path-as-is`); `false` by default, when the transport removes dot segments
    /// as RFC 3986 §5.2.4 says. For probing a server's own handling of such paths.
    public var sendsPathAsIs = false

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

public import FoundationEssentials

/// An HTTP request: method, URL, headers, body and per-request settings.
///
/// A value type: copy it, change it, send it again. Every per-request policy lives here, so an
/// adapter (an interceptor of the session layer) can change it: the timeouts, cookie handling, the
/// largest response body and the credential. Settings left `nil` take the transport's documented
/// defaults; settings given here win over them. How the response body is delivered (a stream or a
/// file, and buffering) is the transfer's business: see `TransferOptions` in `CourierTransport`.
///
/// Copying a request is cheap whatever it holds: the values live in one shared box, copied only
/// when a request whose box is shared is changed, as the standard library's collections do.
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
    // The session layer hands a request through its adapters, the task runner's steps, events,
    // redirects, retries and the response: one reference to retain per copy instead of one per
    // field (the URL, the method's name, the header array, the body's payload, the credential).
    private var storage: Storage

    /// The request method.
    public var method: HTTPMethod {
        get { storage.fields.method }
        _modify {
            makeStorageUnique()
            yield &storage.fields.method
        }
    }

    /// The absolute URL, `http` or `https`.
    public var url: URL {
        get { storage.fields.url }
        _modify {
            makeStorageUnique()
            yield &storage.fields.url
        }
    }

    /// The header fields, in order.
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        _modify {
            makeStorageUnique()
            yield &storage.fields.headers
        }
    }

    /// The body; ``HTTPBody/empty`` by default.
    public var body: HTTPBody {
        get { storage.fields.body }
        _modify {
            makeStorageUnique()
            yield &storage.fields.body
        }
    }

    /// The longest the whole transfer may take (connecting, sending and receiving); `nil` uses the
    /// transport's default. This is AFNetworking's `timeoutInterval`.
    public var timeout: Duration? {
        get { storage.fields.timeout }
        _modify {
            makeStorageUnique()
            yield &storage.fields.timeout
        }
    }

    /// The longest to wait for a connection (name lookup, TCP and TLS handshakes); `nil` uses the
    /// transport's default.
    public var connectTimeout: Duration? {
        get { storage.fields.connectTimeout }
        _modify {
            makeStorageUnique()
            yield &storage.fields.connectTimeout
        }
    }

    /// The longest the transfer may move no bytes (a consumer's backpressure does not count); `nil`
    /// uses the transport's default.
    public var idleTimeout: Duration? {
        get { storage.fields.idleTimeout }
        _modify {
            makeStorageUnique()
            yield &storage.fields.idleTimeout
        }
    }

    /// Whether the transport's cookie store is read and written for this request; `nil` uses the
    /// transport's default.
    public var handlesCookies: Bool? {
        get { storage.fields.handlesCookies }
        _modify {
            makeStorageUnique()
            yield &storage.fields.handlesCookies
        }
    }

    /// The largest decoded response body accepted; a longer one fails the transfer. `nil` uses the
    /// transport's default.
    public var maximumResponseBodySize: Int64? {
        get { storage.fields.maximumResponseBodySize }
        _modify {
            makeStorageUnique()
            yield &storage.fields.maximumResponseBodySize
        }
    }

    /// The credential the transport answers an authentication challenge with; see
    /// ``HTTPCredential`` for when it is sent.
    public var credential: HTTPCredential? {
        get { storage.fields.credential }
        _modify {
            makeStorageUnique()
            yield &storage.fields.credential
        }
    }

    /// How a session's HTTP cache treats the request; ``HTTPCachePolicy/useProtocolPolicy`` by
    /// default. It does nothing in a session without a cache.
    public var cachePolicy: HTTPCachePolicy {
        get { storage.fields.cachePolicy }
        _modify {
            makeStorageUnique()
            yield &storage.fields.cachePolicy
        }
    }

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
        storage = Storage(Fields(method: method, url: url, headers: headers, body: body))
    }

    /// Gives this request a box of its own before a change, so that the change never shows in a
    /// copy that shares the box.
    private mutating func makeStorageUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(storage.fields)
        }
    }
}

extension HTTPRequest: CustomStringConvertible {
    /// `"POST https://example.com/items"`
    public var description: String { "\(method) \(url.absoluteString)" }
}

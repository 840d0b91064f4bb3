public import CourierHTTP

/// The seam between the session layer and whatever moves bytes: libcurl, a test double, a recorder.
///
/// A transport starts one transfer per call and reports it through the transfer's events: the
/// response head, body chunks with backpressure, progress, redirect responses (a transport never
/// follows a redirect itself: the session layer decides), and completion with metrics or a typed
/// ``TransportError``. Implementing the protocol takes one method.
///
/// ```swift
/// let transfer = transport.startTransfer(request, options: TransferOptions())
/// for await event in transfer.events {
///     switch event {
///     case .response(let head): print(head.status)
///     case .body(let chunk): consume(chunk)
///     case .completed(let metrics): print(metrics.total)
///     case .failed(let error): print(error)
///     default: break
///     }
/// }
/// ```
///
/// - Important: Conformers never block the caller: `startTransfer` returns at once and the work
///   happens elsewhere (a loop thread, a task).
public protocol HTTPTransport: Sendable {
    /// Starts sending `request` and returns the transfer that reports it.
    ///
    /// - Parameters:
    ///   - request: The request, with its body.
    ///   - options: Where the response body goes, buffering limits, per-transfer limits.
    func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer

    /// Stops accepting transfers, cancels those in flight and releases resources; returns when done.
    ///
    /// The default does nothing, which suits transports that own nothing.
    func shutdown() async

    /// The store of the cookies the transport sends and keeps, or `nil` when it handles none.
    ///
    /// Requests whose `handlesCookies` (or the transport's default) says so get the store's matching
    /// cookies and leave their responses' `Set-Cookie` fields in it. The default is `nil`.
    ///
    /// ```swift
    /// let names = try await transport.cookieStore?.allCookies().map(\.name) ?? []
    /// ```
    var cookieStore: (any CookieStore)? { get }

    /// What the transport does to every request on its own: whether a request that leaves
    /// `handlesCookies` unset uses ``cookieStore``, and whether it asks for compressed responses.
    ///
    /// The session layer reads it to describe a request as it goes on the wire. The default says
    /// cookies are handled and responses are not decompressed.
    ///
    /// ```swift
    /// if request.handlesCookies ?? transport.requestDefaults.handlesCookies { print("sends cookies") }
    /// ```
    var requestDefaults: TransportRequestDefaults { get }

    /// The executor that runs code on the thread which produces the transfers' events, for tasks
    /// that prefer it (`withTaskExecutorPreference`); the global concurrent executor for a
    /// transport without such a thread.
    ///
    /// The session layer asks this instead of casting to a concrete transport. A task that prefers
    /// a transport's own executor must only drain events there and hop off for heavy work. The
    /// default is the global concurrent executor.
    ///
    /// ```swift
    /// let chunks = await withTaskExecutorPreference(transport.executor) {
    ///     var chunks = 0
    ///     for await event in transport.startTransfer(request).events {
    ///         if case .body = event { chunks += 1 }
    ///     }
    ///     return chunks
    /// }
    /// ```
    var executor: any TaskExecutor { get }

    /// Opens a connection to `request`'s origin and hands over its byte stream, for a protocol that
    /// takes the connection over (WebSocket).
    ///
    /// The connection gets what a transfer of `request` would get on its way to the server: the
    /// proxy (a tunnel through an HTTP proxy, `CONNECT`), TLS with the transport's trust policy,
    /// pins, revocation checks and client identity, decided before the caller can write a byte,
    /// and the connect timeout. Only the URL's scheme, host and port, and the request's timeouts,
    /// are used: no request is sent. The default throws: a transport without connections of its
    /// own has none to hand over.
    ///
    /// ```swift
    /// let connection = try await transport.openRawConnection(to: HTTPRequest(url: url), options: RawConnectionOptions())
    /// try await connection.write(Array("GET /chat HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8))
    /// ```
    /// - Parameters:
    ///   - request: Whose origin to connect to (`http` or `https`).
    ///   - options: How the connection buffers what it receives.
    /// - Returns: The open connection.
    /// - Throws: `TransportError`, with the categories of a transfer that failed to connect
    ///   (`cannotConnect`, `nameResolutionFailed`, `serverTrustFailed`, `tlsFailed`, `proxyFailed`,
    ///   `timedOut`), and `configuration` from a transport that does not support raw connections.
    func openRawConnection(to request: HTTPRequest, options: RawConnectionOptions) async throws -> any RawConnection
}

extension HTTPTransport {
    /// Does nothing.
    public func shutdown() async {}

    /// `nil`: the transport keeps no cookies.
    public var cookieStore: (any CookieStore)? { nil }

    /// Cookies handled (when there is a ``cookieStore``), responses not decompressed.
    public var requestDefaults: TransportRequestDefaults {
        TransportRequestDefaults(handlesCookies: true, decompressesResponses: false)
    }

    /// The global concurrent executor: the transport has no thread of its own to offer.
    public var executor: any TaskExecutor { globalConcurrentExecutor }

    /// Throws `TransportError` of category `configuration`: the transport has no connections of
    /// its own to hand over.
    ///
    /// ```swift
    /// do { _ = try await transport.openRawConnection(to: request, options: RawConnectionOptions()) }
    /// catch let error as TransportError where error.category == .configuration { useAnotherTransport() }
    /// ```
    /// - Parameters:
    ///   - request: Whose origin the caller wanted to connect to.
    ///   - options: Unused.
    /// - Returns: Never returns.
    /// - Throws: Always, `TransportError` of category `configuration`.
    public func openRawConnection(
        to request: HTTPRequest,
        options: RawConnectionOptions
    ) async throws -> any RawConnection {
        throw TransportError(
            category: .configuration,
            message: "this transport (\(type(of: self))) does not support raw connections",
            url: request.url
        )
    }

    /// Starts a transfer with default options.
    ///
    /// ```swift
    /// let transfer = transport.startTransfer(request)
    /// ```
    public func startTransfer(_ request: HTTPRequest) -> HTTPTransfer {
        startTransfer(request, options: TransferOptions())
    }
}

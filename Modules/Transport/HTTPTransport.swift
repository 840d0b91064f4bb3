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

    /// Starts a transfer with default options.
    ///
    /// ```swift
    /// let transfer = transport.startTransfer(request)
    /// ```
    public func startTransfer(_ request: HTTPRequest) -> HTTPTransfer {
        startTransfer(request, options: TransferOptions())
    }
}

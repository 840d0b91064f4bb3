public import CourierHTTP
public import CourierTransport
public import FoundationEssentials

/// The session's seam for an HTTP cache (RFC 9111): asked before a request goes out, and told what
/// came back.
///
/// A `SessionManager` whose `SessionConfiguration.cache` is set calls ``lookup(_:)`` for each
/// attempt of a data task, after the request adapters ran, and ``receive(_:body:for:revalidating:metrics:)``
/// with each final response, before the response serializer sees it. `CourierHTTPCache` implements
/// it (`HTTPCache`); a test can implement it to serve canned responses.
///
/// Streamed responses (`streamingResponse(for:)`, `EventSource`) and download tasks bypass the
/// cache: their bodies never pass through the session in one piece.
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.cache = HTTPCache(store: MemoryCacheStore())
/// let session = SessionManager(transport: transport, configuration: configuration)
/// ```
public protocol ResponseCaching: Sendable {
    /// What to do with `request` before it is sent: use a stored response, send a conditional
    /// request, send it as it is, or fail because only the cache may answer.
    ///
    /// - Parameter request: The request as the adapters left it.
    /// - Returns: The decision.
    func lookup(_ request: HTTPRequest) async -> CacheLookup

    /// Takes the final response of `request` (stores it, merges a `304` into `stored`, or
    /// invalidates what an unsafe method changed) and says what the task completes with.
    ///
    /// - Parameters:
    ///   - response: The response head that arrived.
    ///   - body: Its body.
    ///   - request: The request as ``lookup(_:)`` saw it, without the conditional fields the cache
    ///     added.
    ///   - stored: The stored response a conditional request revalidated, when one did.
    ///   - metrics: The transfer's metrics (its duration is the response delay of RFC 9111 §4.2.3).
    /// - Returns: The response the task completes with, or a request to send the request again
    ///   without conditions.
    func receive(
        _ response: HTTPResponse,
        body: Data,
        for request: HTTPRequest,
        revalidating stored: CachedResponse?,
        metrics: TransferMetrics?
    ) async -> CacheUpdate
}

/// A response and body as a cache hands them to the session.
///
/// ```swift
/// let cached = CachedResponse(response: HTTPResponse(status: .ok), body: Data("hi".utf8))
/// ```
public struct CachedResponse: Sendable {
    /// The response head, as the cache serves it (with its `Age`).
    public var response: HTTPResponse
    /// The body.
    public var body: Data

    /// Creates a cached response.
    ///
    /// ```swift
    /// let cached = CachedResponse(response: HTTPResponse(status: .ok), body: Data())
    /// ```
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: The body.
    public init(response: HTTPResponse, body: Data) {
        self.response = response
        self.body = body
    }
}

/// What a ``ResponseCaching`` cache decides before a request goes out.
///
/// ```swift
/// switch await cache.lookup(request) {
/// case .serve(let cached): print("hit", cached.response.status)
/// case .revalidate(_, let conditional): print(conditional.headers["If-None-Match"] ?? "-")
/// case .send, .notCached: break
/// }
/// ```
public enum CacheLookup: Sendable {
    /// Nothing usable is stored (or the cache does not apply): send the request as it is.
    case send
    /// A stored response answers the request; nothing is sent.
    case serve(CachedResponse)
    /// A stored response needs the server's word: send `conditionalRequest` (with its validators),
    /// and a `304` confirms `stored`.
    case revalidate(CachedResponse, conditionalRequest: HTTPRequest)
    /// The request may be answered only from the cache and nothing usable is stored: the task fails
    /// with ``SessionError/Kind/notCached`` and no transfer.
    case notCached
}

/// What a ``ResponseCaching`` cache makes of a final response.
///
/// ```swift
/// if case .use(let final, .revalidated) = update { print("304 merged", final.body.count) }
/// ```
public enum CacheUpdate: Sendable {
    /// Complete the task with this response; the disposition says where it came from (`nil` when
    /// the cache did not take part, as for a `POST`).
    case use(CachedResponse, CacheDisposition?)
    /// The `304` did not match the stored response (RFC 9111 §4.3.4): send the request again,
    /// without conditions and without asking the cache first.
    case resendUnconditionally
}

/// Where a task's final response came from, when the session has a cache.
///
/// It is on ``DataResponse/cacheDisposition`` and on the ``SessionEvent/cacheDisposition`` of the
/// task's ``SessionEvent/Kind/responseReceived`` (for a hit) and ``SessionEvent/Kind/taskCompleted``
/// events.
///
/// ```swift
/// let response = try await session.data(for: request)
/// if response.cacheDisposition == .hit { print("served without a transfer") }
/// ```
public enum CacheDisposition: Sendable, Hashable {
    /// A stored response was used without asking the server: no transfer.
    case hit
    /// The server answered a conditional request with `304 Not Modified`: the stored response, with
    /// the `304`'s headers merged in, was used; the body came from the cache.
    case revalidated
    /// The response came from the server (and was stored if its headers allow).
    case miss
}

public import CourierHTTP
public import CourierSessionCore
public import CourierWebSocket
public import Dispatch

/// The settings of a ``SessionManager`` beside its transport and interceptors.
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.maximumRedirects = 5
/// configuration.completionQueue = DispatchQueue(label: "app.network.completions")
/// ```
public struct SessionConfiguration: Sendable {
    /// Where completion handlers run; `nil` uses a serial queue of the session's (a Linux server has
    /// no main run loop to default to, as AFNetworking defaults to the main queue).
    public var completionQueue: DispatchQueue?
    /// The group completion handlers run in (AFNetworking's `completionGroup`); `nil` uses one
    /// group of the session's.
    public var completionGroup: DispatchGroup?
    /// Redirects followed per task before it fails with
    /// `SessionError.RedirectFailure.tooManyRedirects(limit:visited:)`: 16, URLSession's limit (and
    /// so AFNetworking's and Alamofire's). Redirects are counted, not guessed: a chain that comes
    /// back to a URL it visited is followed, as browsers, curl and httpie follow it.
    public var maximumRedirects = 16
    /// Whether a redirect from https to http is followed.
    public var allowsInsecureRedirects = false
    /// The clock the session measures deadlines and retry delays on; a test passes `ManualClock`
    /// from `CourierTesting` to run them without waiting.
    public var clock: any SessionClock = .system
    /// The longest a whole call may take, across retries and redirects; `nil` for no deadline.
    /// Each attempt's own `timeout` still applies.
    public var deadline: Duration?
    /// The most bytes of a followed redirect's body read and dropped before its transfer is
    /// cancelled instead (so the connection can be reused for small bodies).
    public var maximumRedirectBodyDrain = 64 << 10
    /// Decides, as each final response head arrives, whether its task goes on
    /// (AFNetworking's data-task did-receive-response block); `nil` allows every response.
    ///
    /// It runs before the body is read (the transfer waits for it), for every task kind and
    /// attempt, but not for redirect heads that are followed. ``ResponseDisposition/cancel``
    /// cancels the transfer at once: the task completes with `SessionError.Kind.cancelled`
    /// (-999) and the response, and is not retried. AFNetworking's become-download and
    /// become-stream dispositions do not exist here: make a download task, or use
    /// `SessionManager.streamingResponse(for:)`, from the start.
    ///
    /// ```swift
    /// configuration.responseDisposition = { _, response in
    ///     response.expectedContentLength ?? 0 > 100 << 20 ? .cancel : .allow
    /// }
    /// ```
    public var responseDisposition: (@Sendable (SessionTask, HTTPResponse) async -> ResponseDisposition)?
    /// The HTTP cache data tasks consult and fill; `nil` (the default) for none.
    ///
    /// Streamed responses and download tasks bypass it. A response served from the cache skips
    /// the transport, ``responseDisposition`` and the retriers; one revalidated with a `304` has
    /// the stored body and the merged headers by the time the serializer sees it. Each request's
    /// `cachePolicy` says how it uses the cache.
    ///
    /// ```swift
    /// configuration.cache = HTTPCache(store: MemoryCacheStore())
    /// ```
    public var cache: (any ResponseCaching)?
    /// Opens the session's WebSockets over its transport (`SessionManager.webSocket(_:configuration:)`);
    /// `nil` (the default) for none, and then opening one throws
    /// `SessionError.Kind.webSocketUnavailable`. `CourierClient` sets `WebSocketConnector()` from
    /// `CourierWebSocketEngine`; a test sets `MockWebSocketConnector` from `CourierTesting`.
    ///
    /// ```swift
    /// configuration.webSocketConnector = MockWebSocketConnector()
    /// ```
    public var webSocketConnector: (any WebSocketConnecting)?

    /// Creates the defaults.
    public init() {}
}

/// What a session does with a response head (AFNetworking's `NSURLSessionResponseDisposition`,
/// without the background-only kinds).
///
/// ```swift
/// configuration.responseDisposition = { _, response in response.mimeType == "text/html" ? .cancel : .allow }
/// ```
public enum ResponseDisposition: Sendable, Hashable {
    /// Read the body and complete the task normally.
    case allow
    /// Cancel the transfer; the task completes with a cancellation error and the response.
    case cancel
}
